// cabledyn module header: statics (the analytic catenary; the EI = 0 and Hermite static
// solvers).
#pragma once

#include "cabledyn/statics/catenary.hpp"
