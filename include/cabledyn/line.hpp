// cabledyn module header: line (line types, sections, mesh, DOF map, end connections,
// element loads, static residual and energy assembly, held DOFs).
#pragma once

#include "cabledyn/line/line_type.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/end_spring.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/line_model.hpp"
#include "cabledyn/line/line_statics_model.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/line/line_mass.hpp"
