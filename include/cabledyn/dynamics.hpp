// cabledyn module header: dynamics (the generalised-alpha parameters and a dense stepper; the
// EI = 0 lines' release cap and sub-step trigger, policies the systems apply through their
// hooks; the prescribed kinematics of a held point; the generalised-alpha stepper of any
// system).
#pragma once

#include "cabledyn/dynamics/ei0_substeps.hpp"
#include "cabledyn/dynamics/end_motion.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/hermite_step_check.hpp"
#include "cabledyn/dynamics/release_cap.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
