// cabledyn module header: io (the deck reader and writer of DECK_FORMAT.md: records with
// their source lines, typed options, output channels, the motionFile and the harmonic
// fairlead motion; see docs/deck-format.md).
#pragma once

#include "cabledyn/io/channel.hpp"
#include "cabledyn/io/deck_options.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/motion.hpp"
#include "cabledyn/io/svg_plot.hpp"
#include "cabledyn/io/line_output_file.hpp"
#include "cabledyn/io/line_run.hpp"
#include "cabledyn/io/deck_sea.hpp"
#include "cabledyn/io/node_recovery.hpp"
#include "cabledyn/io/system_model.hpp"
#include "cabledyn/io/system_simulation.hpp"
#include "cabledyn/io/run_settings.hpp"
#include "cabledyn/io/system_runner.hpp"
