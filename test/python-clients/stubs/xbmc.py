"""Stand-in for Kodi's xbmc module: what the clients under test call, recorded for the driver."""

LOGDEBUG, LOGINFO, LOGNOTICE, LOGWARNING, LOGERROR, LOGFATAL, LOGNONE = 0, 1, 2, 3, 4, 5, 6

LOG = []  # (level, message) of every xbmc.log call


def log(msg, level=LOGDEBUG):
    LOG.append((level, msg))


def getInfoLabel(label):
    return {"System.Language": "English", "System.BuildVersion": "21.0", "System.OSVersionInfo": "Linux"}.get(label, "")


class Actor:
    def __init__(self, name="", role="", order=-1, thumbnail=""):
        self.name, self.role, self.order, self.thumbnail = name, role, order, thumbnail
