# The freeze manifest of a board with Wi-Fi (the Pico W, the ESP32): every board's
# (manifest.py) and the optional parts it requires, the live page and the club's publisher
# (each folder's manifest.py). See manifest.py for how to use it.

include("manifest.py")  # the core: the rules, the app, the pin maps
include("page")  # the live page (page/manifest.py), its HTTP its own (page/http.py)
include("publish")  # the club's publisher (publish/manifest.py), no library
