// cabledyn module header: nodes (the spring-damper node of spring-damper-node.md, generic
// one-step integrators, the node graph with edges and coupling groups, the exact stability
// analysis of a node and of an anchored pair, the compile-time advisory, the MMS order
// study).
#pragma once

#include "cabledyn/nodes/spring_damper.hpp"
#include "cabledyn/nodes/integrators.hpp"
#include "cabledyn/nodes/stability.hpp"
#include "cabledyn/nodes/advisory.hpp"
#include "cabledyn/nodes/anchored_pair_advisory.hpp"
#include "cabledyn/nodes/graph.hpp"
#include "cabledyn/nodes/order_study.hpp"
