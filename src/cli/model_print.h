/*
 * model_print.h — running models on a profile and printing their results,
 * shared by `warpsight model` and `warpsight predict`.
 */
#ifndef WS_CLI_MODEL_PRINT_H
#define WS_CLI_MODEL_PRINT_H

#include <stddef.h>

#include "warpsight/advise.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"

struct cJSON;

/* The "models:" lines of a --help text (name and title, indented). */
void cli_model_list(char *buf, size_t size);

/* Is `model` "all" or a known model?  Prints the error (listing the known
 * models) when not. */
int cli_model_valid(const char *model);

/* Run the nmodels models named in models[] (cli_model_names) on p for g,
 * in that order.  Text: the terms table of a single model, or one line per
 * model.  JSON (json_root != NULL): adds "results": [{"model", "status",
 * "cycles", "time_ms", "case", "limiter", "terms"} ...] to json_root and
 * prints nothing.  Returns the exit status (0; 2 when the one model asked
 * for could not run, or none of several could).  *results (optional) gets
 * the results that ran, for charts and advice (free each with
 * ws_model_result_free, then the array). */
int cli_run_models(const ws_profile *p, const ws_gpu *g, const char *const *models, size_t nmodels,
                   struct cJSON *json_root, ws_model_result **results, size_t *nresults);

/* The advisor over the n results of profile p on GPU g into *a (alt: the
 * same work at the sweep's best block size, or NULL; ws_advise_free *a,
 * whatever the status); WS_OK, WS_ENOMEM or the advisor's status, with d. */
int cli_advise(ws_advice *a, const ws_profile *p, const ws_gpu *g, const ws_model_result *res,
               size_t n, const ws_profile *alt, ws_diag *d);
/* --advise: a (from cli_advise with status st) as text to stdout -- the
 * advice, then every model's saving for every change -- or "advice" and
 * "counterfactuals" objects added to `extra`; when st failed, d's errors.
 * Returns the exit status. */
int cli_print_advice(int st, const ws_advice *a, const ws_diag *d, struct cJSON *extra);
/* --charts DIR: DIR/KERNEL-MODEL.png and .svg for each result that has a
 * chart (DIR is created); with `extra`, a "charts" array of the files.
 * `cmd` names the subcommand in messages.  Returns the exit status. */
int cli_finish_charts(const char *cmd, const char *dir, const char *kernel,
                      const ws_model_result *res, size_t n, struct cJSON *extra);

/* The charts (with --charts DIR) of one result set, their list added to
 * root when not NULL (which is not printed).  Returns EXIT_USAGE if they
 * failed, else EXIT_OK. */
int cli_finish_sections(const char *cmd, const char *charts_dir, const char *kernel,
                        const ws_model_result *res, size_t n, struct cJSON *root);

/* An option's comma-separated list ("a,b,c") of `noun`s: fills names[]
 * (pointers into buf, a copy of `arg`) and returns how many, or 0 after
 * printing the error (an empty item, more than `max`, longer than buf). */
size_t cli_split_list(const char *cmd, const char *opt, const char *noun, const char *arg,
                      char *buf, size_t bufsize, const char **names, size_t max);

/* The one grammar of --gpu and --model for every command that predicts
 * (predict, sweep, exec, model, validate): "all", one name, or a
 * comma-separated list, each name once.  The most names a list may hold
 * (the database has fewer GPUs, the registry fewer models; 64 until the
 * database grew past it, when --gpu all stopped working: 128 now). */
#define CLI_MAX_TARGETS 128
/* A --gpu value (opt names the option in messages): "all" is every GPU of
 * the database in `warpsight gpus` order; else database names or GPU JSON
 * files (not loaded here).  names[] points into buf or the database.
 * Returns how many, or 0 after printing the error (an empty item, 'all' in
 * a list, a name twice, more than max). */
size_t cli_gpu_names(const char *cmd, const char *opt, const char *arg, char *buf, size_t bufsize,
                     const char **names, size_t max);
/* A --model value: "all" is every model in the registry's order (warpsight
 * first); else model names, each checked (an unknown one is an error that
 * lists the models).  Returns how many, or 0 after printing the error. */
size_t cli_model_names(const char *cmd, const char *opt, const char *arg, char *buf, size_t bufsize,
                       const char **names, size_t max);

/* times[m] = the time_ms of model m (ws_model_at order) among res, NAN for
 * a model that did not run. */
void cli_gpu_times(double *times, const ws_model_result *res, size_t n);

#endif
