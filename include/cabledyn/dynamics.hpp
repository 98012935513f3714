// cabledyn module header: dynamics (generalised-alpha parameters and a dense stepper; the
// implicit march of a line: its bookkeeping, load model, policies and stepper; the
// generalised-alpha stepper of any system).
#pragma once

#include "cabledyn/dynamics/band_scatter.hpp"
#include "cabledyn/dynamics/ei0_substeps.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/line_dynamics.hpp"
#include "cabledyn/dynamics/line_load_model.hpp"
#include "cabledyn/dynamics/line_march_types.hpp"
#include "cabledyn/dynamics/release_cap.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
