"""Stand-in for Kodi's xbmcplugin module: keeps the items an add-on hands back."""

ITEMS = []  # (handle, url, listitem, isFolder) of every addDirectoryItem
RESOLVED = []  # (handle, succeeded, listitem) of every setResolvedUrl
ENDED = []  # handles passed to endOfDirectory


def addDirectoryItem(handle, url, listitem, isFolder=False, totalItems=0):
    ITEMS.append((handle, url, listitem, isFolder))
    return True


def setResolvedUrl(handle, succeeded, listitem):
    RESOLVED.append((handle, succeeded, listitem))


def endOfDirectory(handle, succeeded=True, updateListing=False, cacheToDisc=True):
    ENDED.append(handle)


def reset():
    ITEMS.clear()
    RESOLVED.clear()
    ENDED.clear()
