// cabledyn module header: elements (the EI = 0 tension element and the cubic-Hermite bending
// element with its section-force and curvature recovery).
#pragma once

#include "cabledyn/elements/element_params.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "cabledyn/elements/hermite_shape.hpp"
#include "cabledyn/elements/hermite_density.hpp"
#include "cabledyn/elements/hermite_element.hpp"
