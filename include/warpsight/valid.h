/*
 * warpsight/valid.h — validation against measured kernel times
 * (docs/validation.md), one header per topic:
 *   valid_data.h     a CSV reader, the measured data set, GPU names, the
 *                    validation kernels
 *   valid_launch.h   launch specs built from the rows
 *   valid_cache.h    the profile cache
 *   valid_predict.h  the prediction step, statistics, a validation run
 *   valid_calib.h    calibration of a model's parameters
 * The reports of a run (tables, CSVs, charts) are in warpsight/report.h.
 */
#ifndef WARPSIGHT_VALID_H
#define WARPSIGHT_VALID_H

#include "warpsight/valid_cache.h"
#include "warpsight/valid_calib.h"
#include "warpsight/valid_data.h"
#include "warpsight/valid_launch.h"
#include "warpsight/valid_predict.h"

#endif
