// cabledyn module header: modal (natural frequencies and mode shapes of a line about its
// static equilibrium: the free-DOF stiffness and mass, the analysis, the <root>.modes.out
// writer).
#pragma once

#include "cabledyn/linalg/band_eigen.hpp"
#include "cabledyn/modal/modal_system.hpp"
#include "cabledyn/modal/modal_analysis.hpp"
#include "cabledyn/modal/modes_output.hpp"
