# Runs first at every boot. Keep it tiny: a mistake here can keep the board from starting.
# Room for an emergency exception buffer, so a fault inside an interrupt can still be reported.
import micropython

micropython.alloc_emergency_exception_buf(100)
