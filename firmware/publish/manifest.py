# The club's publisher (publish/README.md), for manifest_wifi.py (makemanifest runs it in this
# folder). It requires the page (page/manifest.py: the state it sends is the page's, its games
# the page's export). No library: the board writes its MQTT packets itself (publish/
# packets.py, issue 34), byte for byte micropython-lib's umqtt.simple's, which only the host
# keeps (host_tests/test_publish.py holds the packets to it).
import os

package("publish", files=sorted(f for f in os.listdir(".") if f.endswith(".py")
                                and f != "manifest.py"), base_path="..", opt=3)
