// cabledyn module header: system (mooring systems of lines, points, rigid bodies and rods: the line load model
// with parameters in the scalar type, the bordered Jacobian and its block solve, the system's
// DOF numbering and state, system statics and modes; SO(3) maps and the body model; the system's
// connected components stepped apart).
#pragma once

#include "cabledyn/core/so3.hpp"
#include "cabledyn/system/body_model.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"
#include "cabledyn/system/mooring_system.hpp"
#include "cabledyn/system/system_statics.hpp"
#include "cabledyn/system/system_modes.hpp"
#include "cabledyn/dynamics/staggered_stepper.hpp"
#include "cabledyn/system/component_view.hpp"
#include "cabledyn/system/component_steppers.hpp"
