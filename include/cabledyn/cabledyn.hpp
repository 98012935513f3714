// cabledyn: umbrella header. Includes every module (ARCHITECTURE.md order).
// A header-only C++20 library for the statics, dynamics and modal analysis of mooring
// lines and subsea power cables.
#pragma once

#include "cabledyn/core.hpp"
#include "cabledyn/autodiff.hpp"
#include "cabledyn/linalg.hpp"
#include "cabledyn/elements.hpp"
#include "cabledyn/hydro.hpp"
#include "cabledyn/sea.hpp"
#include "cabledyn/seabed.hpp"
#include "cabledyn/line.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/dynamics.hpp"
#include "cabledyn/modal.hpp"
#include "cabledyn/system.hpp"
#include "cabledyn/nodes.hpp"
#include "cabledyn/io.hpp"
