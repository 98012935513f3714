// cabledyn module header: statics (the analytic catenary; the EI = 0 and Hermite static
// solvers).
#pragma once

#include "cabledyn/statics/catenary.hpp"
#include "cabledyn/statics/static_common.hpp"
#include "cabledyn/statics/tension_statics.hpp"
#include "cabledyn/statics/hermite_statics.hpp"
