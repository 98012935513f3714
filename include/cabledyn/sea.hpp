// cabledyn module header: sea (dispersion, Airy and irregular linear seas with Wheeler
// stretching, spectra and their synthesis, stream-function waves, currents, the ramp, the
// FluidField interface and the held field).
#pragma once

#include "cabledyn/sea/dispersion.hpp"
#include "cabledyn/sea/ramp.hpp"
#include "cabledyn/sea/airy.hpp"
#include "cabledyn/sea/spectra.hpp"
#include "cabledyn/sea/irregular.hpp"
#include "cabledyn/sea/stream_function.hpp"
#include "cabledyn/sea/current.hpp"
#include "cabledyn/sea/fluid_field.hpp"
#include "cabledyn/sea/wave_field.hpp"
