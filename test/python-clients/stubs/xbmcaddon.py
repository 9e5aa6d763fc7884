"""Stand-in for Kodi's xbmcaddon module: an add-on whose settings are their defaults."""

SETTINGS = {"language": "EN", "players_opt": "Tubed", "enab_trailer": False, "verboselog": False}
INFO = {"id": "metadata.tvshows.thesportsdb.python", "version": "0", "name": "TheSportsDB", "path": ".", "profile": "."}


class Addon:
    def __init__(self, id=None):
        self.id = id or INFO["id"]

    def getSettingString(self, key):
        return str(SETTINGS.get(key, ""))

    def getSettingBool(self, key):
        return bool(SETTINGS.get(key, False))

    def getSettingInt(self, key):
        return int(SETTINGS.get(key, 0))

    def getSetting(self, key):
        v = SETTINGS.get(key, "")
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    def getAddonInfo(self, key):
        return INFO.get(key, "")

    def getLocalizedString(self, n):
        return str(n)
