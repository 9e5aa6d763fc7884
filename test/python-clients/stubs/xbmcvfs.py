"""Stand-in for Kodi's xbmcvfs module: special:// paths under SPORTSDB_KODI_HOME."""
import os

HOME = os.environ.get("SPORTSDB_KODI_HOME", "/tmp/kodi-home")


def translatePath(path):
    if path.startswith("special://"):
        return os.path.join(HOME, path[len("special://"):])
    return path


def exists(path):
    return os.path.exists(path)


def mkdir(path):
    os.makedirs(path, exist_ok=True)
    return True


def mkdirs(path):
    return mkdir(path)
