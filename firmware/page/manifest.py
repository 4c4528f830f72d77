# The live page (page/README.md), for manifest_wifi.py (makemanifest runs it in this folder):
# its modules, and the board's modules only the page (and the club's publisher, which requires
# it) runs: firmware/manifest.py's PARTS["page"]. Its web framework, microdot, is frozen when
# MICRODOT_LIB names the folder that holds it (`MICRODOT_LIB=$(.venv/bin/python
# tools/hostenv.py)`): frozen, its ~31 KB of code leave the heap, which is what an ESP32 without
# PSRAM needs to serve the page (README). The page itself (www/index.html) is sent from the
# filesystem: copy it there (mpremote mkdir :www + cp firmware/www/index.html :www/).
import os

package("page", files=sorted(f for f in os.listdir(".") if f.endswith(".py")
                             and f != "manifest.py"), base_path="..", opt=3)
package("board", files=["export.py", "snapshot.py"], base_path="..", opt=3)

if os.environ.get("MICRODOT_LIB"):
    package("microdot", base_path=os.environ["MICRODOT_LIB"], opt=3)
