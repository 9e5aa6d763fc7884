"""Stand-in for Kodi's xbmcgui module: list items that keep what the add-on sets on them."""


class InfoTagVideo:
    def __init__(self):
        self.calls = {}  # setter name -> list of argument tuples

    def __getattr__(self, name):
        if not (name.startswith("set") or name.startswith("add")):
            raise AttributeError(name)

        def record(*args, **kwargs):
            self.calls.setdefault(name, []).append(args + tuple(kwargs.items()))

        return record


class ListItem:
    def __init__(self, label="", label2="", path="", offscreen=False):
        self.label, self.label2, self.path = label, label2, path
        self.tag = InfoTagVideo()
        self.fanart = []
        self.art = {}
        self.properties = {}

    def getVideoInfoTag(self):
        return self.tag

    def getLabel(self):
        return self.label

    def setAvailableFanart(self, images):
        self.fanart = list(images)

    def setArt(self, art):
        self.art.update(art)

    def setProperty(self, key, value):
        self.properties[key] = value
