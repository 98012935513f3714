// cabledyn module header: autodiff (dual aliases, gradient / Hessian / Jacobian helpers,
// tangent checkers).
#pragma once

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/autodiff/derivatives.hpp"
#include "cabledyn/autodiff/tangent_check.hpp"
