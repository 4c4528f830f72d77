# The live page (page/README.md), for manifest_wifi.py (makemanifest runs it in this folder):
# its modules, and the board's modules only the page (and the club's publisher, which requires
# it) runs: firmware/manifest.py's PARTS["page"]. Its HTTP is its own (page/http.py): no web
# framework to freeze beside it. The page itself (www/index.html) is sent from the
# filesystem: copy it there (mpremote mkdir :www + cp firmware/www/index.html :www/).
import os

package("page", files=sorted(f for f in os.listdir(".") if f.endswith(".py")
                             and f != "manifest.py"), base_path="..", opt=3)
package("board", files=["export.py", "snapshot.py"], base_path="..", opt=3)
