# The ESP32's ADC1 transfer curve: what `read_u16` reads for a voltage at the pin, per chip.
#
# The classic ESP32's ADC is not calibrated in hardware: a raw reading depends on the chip's
# reference voltage, 1100 mV by design but "from 1000 mV to 1200 mV amongst different ESP32s"
# (ESP-IDF documentation, ADC calibration, ESP32), measured at the factory into each chip's
# eFuse. MicroPython's `read_u16`
# scales the raw 12-bit reading and nothing else (ports/esp32/machine_adc.c:
# `u16 = raw << 4 | raw >> 8`); only `read_uv` applies the calibration.
#
# The curve is the one Espressif's own calibration inverts (ESP-IDF components/esp_adc/esp32/
# adc_cali_line_fitting.c, "line fitting" scheme with the eFuse Vref):
#   * linear: V_mV = coeff_a * raw / 65536 + OFFSET_MV[atten], coeff_a = vref * SCALE[atten] / 4096
#     (at 11 dB an offset of 142 mV: nothing below about 0.14 V reads above 0);
#   * at 11 dB, from raw 2880 up, the curve bends (the reading climbs faster, and reaches 4095
#     at about 3.06..3.21 V rather than the 3.44 V of the straight line): a lookup
#     table of 20 points every 64 raw counts, bilinear between a chip of Vref 1000 mV (LUT_LOW)
#     and one of 1200 mV (LUT_HIGH); from 2880 to 2944 the linear and table values are blended.
# The simulated chip reads exactly that curve for its own Vref (drawn per seed by the simulator),
# inverted: voltage in, raw reading out (the stand-in machine.ADC); the hardware package's magnet
# checks read it on the chips that are worst for them (upref/hardware/magnetics.py).
#
# Runs unchanged under CPython and the MicroPython unix port (the simulated board puts this
# folder on the firmware process's path beside the stand-ins): no typing, integers only, and
# raw16() allocates nothing once a Curve is made.

from array import array

# ESP-IDF adc_cali_line_fitting.c (ESP32, ADC unit 1), per attenuation 0, 2.5, 6, 11 dB
SCALE = (57431, 76236, 105481, 196602)
OFFSET_MV = (75, 78, 107, 142)
LUT_LOW = (2240, 2297, 2352, 2405, 2457, 2512, 2564, 2616, 2664, 2709,
           2754, 2795, 2832, 2868, 2903, 2937, 2969, 3000, 3030, 3060)
LUT_HIGH = (2667, 2706, 2745, 2780, 2813, 2844, 2873, 2901, 2928, 2956,
            2982, 3006, 3032, 3059, 3084, 3110, 3135, 3160, 3184, 3209)
LUT_VREF_LOW = 1000
LUT_VREF_HIGH = 1200
LUT_STEP = 64
LUT_THRESH = 2880
ATTN_11DB = 3

VREF_MIN_MV = 1000  # Espressif: the reference of an ESP32 lies between 1000 and 1200 mV
VREF_MAX_MV = 1200
VREF_NOMINAL_MV = 1100
EFUSE_VREF_STEP_MV = 7  # the eFuse stores the chip's Vref as 1100 mV +- n * 7 mV


def efuse_vref(vref_mv):
    """The Vref a chip's eFuse holds: its true Vref to the nearest 7 mV step from 1100."""
    d = vref_mv - VREF_NOMINAL_MV
    n = (abs(d) + EFUSE_VREF_STEP_MV // 2) // EFUSE_VREF_STEP_MV
    return VREF_NOMINAL_MV + (n if d >= 0 else -n) * EFUSE_VREF_STEP_MV


def _coeff_a(vref_mv, atten):
    return vref_mv * SCALE[atten] // 4096


def _linear_mv(raw, coeff_a, atten):
    return (coeff_a * raw + 32768) // 65536 + OFFSET_MV[atten]


def _lut_mv(raw, vref_mv):
    # bilinear in (Vref, raw) between LUT_LOW (1000 mV) and LUT_HIGH (1200 mV)
    i = (raw - LUT_THRESH) // LUT_STEP
    if i > 18:
        i = 18
    x2 = LUT_VREF_HIGH - vref_mv
    x1 = vref_mv - LUT_VREF_LOW
    y2 = (i + 1) * LUT_STEP + LUT_THRESH - raw
    y1 = raw - (i * LUT_STEP + LUT_THRESH)
    v = (LUT_LOW[i] * x2 * y2 + LUT_HIGH[i] * x1 * y2 + LUT_LOW[i + 1] * x2 * y1
         + LUT_HIGH[i + 1] * x1 * y1)
    span = (LUT_VREF_HIGH - LUT_VREF_LOW) * LUT_STEP
    return (v + span // 2) // span


def raw_to_mv(raw, vref_mv, atten=ATTN_11DB):
    """Espressif's calibrated voltage (mV) of a 12-bit raw reading, for a chip whose eFuse
    holds vref_mv: what MicroPython's `read_uv() // 1000` returns."""
    if raw < 0:
        raw = 0
    if raw > 4095:
        raw = 4095
    ca = _coeff_a(vref_mv, atten)
    if atten != ATTN_11DB or raw < LUT_THRESH:
        return _linear_mv(raw, ca, atten)
    lut = _lut_mv(raw, vref_mv)
    if raw <= LUT_THRESH + LUT_STEP:
        lin = _linear_mv(raw, ca, atten)
        x = raw - LUT_THRESH
        return (lin * LUT_STEP + lut * x - lin * x + LUT_STEP // 2) // LUT_STEP
    return lut


class Curve:
    """One chip's ADC1 at one attenuation: raw16(uv) is the reading (0..65535, before
    quantisation to 12 bits) for uv microvolts at the pin."""

    def __init__(self, vref_mv=VREF_NOMINAL_MV, atten=ATTN_11DB):
        if vref_mv < 900 or vref_mv > 1300:
            raise ValueError("ADC reference out of range: %d mV" % vref_mv)
        self.vref_mv = vref_mv
        self.atten = atten
        self._off_uv = OFFSET_MV[atten] * 1000
        self._ca = _coeff_a(vref_mv, atten)
        # knots of the bent part (11 dB): raw LUT_THRESH + 64 j and its voltage in uV
        n = (4096 - LUT_THRESH) // LUT_STEP + 1 if atten == ATTN_11DB else 0
        self._n = n
        self._kv = array("i", [0] * (n if n else 1))
        for j in range(n):
            self._kv[j] = raw_to_mv(LUT_THRESH + j * LUT_STEP, vref_mv, atten) * 1000
        if n:  # the last knot is 4096: the top of the scale
            self._kv[n - 1] = _lut_mv(4096, vref_mv) * 1000

    def raw16(self, uv):
        """The raw reading times 16 (the scale of read_u16) for uv microvolts, 0..65535."""
        n = self._n
        if n and uv > self._kv[0]:
            kv = self._kv
            j = 1
            while j < n and uv > kv[j]:
                j += 1
            if j >= n:
                return 65535
            lo = kv[j - 1]
            r16 = (LUT_THRESH + (j - 1) * LUT_STEP) * 16 + (uv - lo) * LUT_STEP * 16 // (kv[j] - lo)
        else:
            r16 = (uv - self._off_uv) * 1048576 // (self._ca * 1000)
        if r16 < 0:
            return 0
        if r16 > 65535:
            return 65535
        return r16

    def read_u16(self, uv):
        """What MicroPython's read_u16 returns for uv at the pin (no noise)."""
        raw = self.raw16(uv) >> 4
        return (raw << 4) | (raw >> 8)
