"""A fake micropython-lib `ssd1306` driver: the fake board's display (tools/host/fakeboard/fake.py:
keeps the text lines shown, 8 lines of 16 characters as the 8x8 font puts them) behind the
driver's constructor, for the simulator to print. For tools/sim --board."""

from fakeboard.fake import Display


class SSD1306_I2C(Display):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        if (width, height) != (Display.width, Display.height):
            raise ValueError("this fake display is 128 x 64")
        Display.__init__(self)
        self.shown = [""] * (height // 8)

    def poweroff(self):
        pass

    def poweron(self):
        pass

    def contrast(self, c):
        pass
