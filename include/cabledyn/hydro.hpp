// cabledyn module header: hydro (Morison drag, added mass, Froude-Krylov, buoyancy).
#pragma once

#include "cabledyn/hydro/morison.hpp"
