"""The club's director as the club's tests meet him: a password set in the club's file before
the service starts (as --set-password does), and a browser of his own over urllib (its cookie,
its pages' Origin and the CSRF token each page of his carries)."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

from club.director import Director

PASSWORD = "pegging-29"


def set_password(db, password=PASSWORD):
    d = Director(str(db))
    d.set_password(password)
    d.close()


class DirectorBrowser:
    """A browser at url: keeps the session's cookie and the last page's CSRF token; its writes
    carry the club's own Origin unless told otherwise."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def request(self, path, form=None, origin=None, headers=None):
        """(status, body as text) of a GET, or of a POST of form (a dict)."""
        h = dict(headers or {})
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            h["Origin"] = self.url if origin is None else origin
        req = urllib.request.Request(self.url + path, data, headers=h)
        try:
            with self.opener.open(req, timeout=30) as r:
                status, body = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read().decode()
        m = re.search(r'name="csrf" value="([^"]*)"', body)
        if m:
            self.csrf = m.group(1)
        return status, body

    def login(self, password=PASSWORD):
        status, body = self.request("/director", {"do": "login", "password": password})
        assert status == 200 and "logged in" in body, (status, body[-500:])
        return self

    def post(self, **form):
        """A director's write through the page's form (its CSRF token)."""
        return self.request("/director", dict({"csrf": self.csrf}, **form))
