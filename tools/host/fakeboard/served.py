"""The fake board serving its live page on the loopback address, as the page's runs under
MicroPython set it up (host_tests/mp_webflood.py, tools/bench/keyflood_board.py): served(hw,
port) hands hw the network (net(): 127.0.0.1, as a board's Wi-Fi gives it once joined) and the
page's port and host, makes the app on it and boots it, as main.py does; returns the app.

Its own module, apart from fake.py, which every host run loads: on the unix port each name a
loaded module has is interned on the heap."""


def served(hw, port):
    from board.app import App

    async def net():
        return "127.0.0.1"

    hw["net"] = net
    hw["web_port"] = port
    hw["web_host"] = "127.0.0.1"
    app = App(hw)
    app.boot()
    return app
