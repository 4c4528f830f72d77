# The club's publisher (publish/README.md), for manifest_wifi.py (makemanifest runs it in this
# folder). It requires the page (page/manifest.py: the state it sends is the page's, its games
# the page's export). micropython-lib's MQTT client: the bytes its packets are held to
# (host_tests/test_publish.py); the board writes them itself (publish/packets.py, issue 34).
import os

package("publish", files=sorted(f for f in os.listdir(".") if f.endswith(".py")
                                and f != "manifest.py"), base_path="..", opt=3)
require("umqtt.simple")
