"""A fake micropython-lib `ssd1306` driver: keeps the text lines shown (8 lines of 16
characters, as the 8x8 font puts them) for the simulator to print. For tools/sim.py --board."""


class SSD1306_I2C:
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.lines = {}
        self.shown = [""] * (height // 8)
        self.shows = 0

    def fill(self, c):
        self.lines = {}

    def text(self, s, x, y, c=1):
        self.lines[y // 8] = s

    def show(self):
        self.shows += 1
        self.shown = [self.lines.get(i, "") for i in range(self.height // 8)]

    def poweroff(self):
        pass

    def poweron(self):
        pass

    def contrast(self, c):
        pass
