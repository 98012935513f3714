// cabledyn module header: seabed (normal penalty contact and damping).
#pragma once

#include "cabledyn/seabed/contact.hpp"
