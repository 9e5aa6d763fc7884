"""Python 2's urllib2 names on Python 3, for Python 2 client code run unchanged (Debian has no
Python 2). urllib.quote, the other Python 2 name such code uses, is set by the driver."""
from urllib.error import HTTPError, URLError  # noqa: F401
from urllib.request import Request, build_opener, urlopen  # noqa: F401
