// cabledyn module header: dynamics (generalised-alpha parameters and a dense stepper; the
// implicit march of a line; the generalised-alpha stepper of any system).
#pragma once

#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/line_dynamics.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
