// cabledyn module header: core (scalar traits, Eigen aliases, quadrature, DOF layouts,
// environment constants, named errors).
#pragma once

#include "cabledyn/core/version.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/core/math.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/core/quintic.hpp"
#include "cabledyn/core/roots.hpp"
#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/fp_env.hpp"
