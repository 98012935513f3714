// cabledyn: umbrella header. Includes every module.
// A header-only C++20 library for the statics, dynamics and modal analysis of mooring
// lines and subsea power cables.
#pragma once

#include "cabledyn/core.hpp"
#include "cabledyn/autodiff.hpp"
#include "cabledyn/sea.hpp"
