"""The peg track's PCB (issues 25, 32), grouped by job:

  parts.py     the LED parts: pin maps, datasheet figures, footprint data (plain data)
  route.py     the chain's track geometry (plain Python)
  kicad.py     KiCad 6's pcbnew wrapped: the board under construction, footprints, the
               byte-for-byte board file (system python3 only)
  generate.py  the generator: LEDs from the firmware's layout, the controller, the power
               path (system python3 only; `make pcb` runs it as a subprocess)
  read.py      the board file read back in .venv
  fab.py       BOM and pick-and-place from hardware/pcb/parts.csv, the picture
  check.py     the checks (`python -m pcb.check`, host_tests/test_pcb.py)

Only generate.py and kicad.py import pcbnew; nothing imports generate.py."""
