/*
 * report/report_json.h — the JSON sections of the reports, as cJSON objects
 * the CLI assembles into its documents (docs/cli-profile-predict.md,
 * docs/cli.md).  Internal: it names cJSON, which no public header does; the
 * text forms of the same reports are in warpsight/report.h.
 *
 * Ownership: a returned cJSON belongs to the caller (cJSON_Delete, or added
 * to a tree); functions taking `root` add one member to it.  Everything
 * else is borrowed for the call.
 */
#ifndef WS_REPORT_JSON_H
#define WS_REPORT_JSON_H

#include "warpsight/advise.h"
#include "warpsight/report.h"
#include "warpsight/model.h"

struct cJSON;

/* `analyze --json`: {"file", "target", "ptx_version", "kernels": []}; one
 * ws_report_analyze_kernel_json object per function goes into "kernels". */
struct cJSON *ws_report_analyze_json(const char *file, const ws_ptx_module *m);
struct cJSON *ws_report_analyze_kernel_json(const ws_ptx_module *m, const ws_ptx_function *f,
                                            const ws_cfg *c, const ws_report_ptxas *pi);
/* `gpus --json`: one GPU's {"name", "full_name", "architecture",
 * "compute_capability", "sms", "clock_ghz", "mem_bandwidth_gbs"}. */
struct cJSON *ws_report_gpus_row_json(const ws_gpu *g);
/* The head of a warpsight-predict/1 document: {"schema", "gpu", "kernel",
 * "profile": {...warpsight-profile/1...}}. */
struct cJSON *ws_report_predict_json(const ws_profile *p, const ws_gpu *g);
/* A `model` result set's "gpu" and "kernel". */
void ws_report_model_set_json(struct cJSON *set, const ws_profile *p, const ws_gpu *g);
/* The named report sections of a profile (ws_profile_section_json) in one
 * object for a renderer to read (caller deletes; absent ones left out). */
struct cJSON *ws_report_profile_sections(const ws_profile *p, const char *const *names, size_t n);
/* `model --terms --json`: {"models": [{"model", "terms": [{"name", "unit",
 * "equation", "meaning"}], "bounds": [{"name", "limiter", "advice"}]}]}. */
struct cJSON *ws_report_model_declarations_json(const char *model);
/* One result: {"model", "status", "cycles", "time_ms", "floors",
 * "below_floor", "case", "limiter", "terms"}; for a model that did not run
 * {"model", "status": "missing-inputs" | "error", "missing": [...]}. */
struct cJSON *ws_report_model_json(const ws_model_result *r, int status, const ws_floors *fl);
/* root.floors = {"dram_ms", "dram_bytes", "issue_ms", "warp_insts", "issue_per_cycle"}. */
void ws_report_floors_json(struct cJSON *root, const ws_floors *fl);
/* root.advice = {"bottleneck", "primary", "changes": [{"kind", "topic", "action",
 * "finding", "line", "saving_ms", "share", "addresses_bottleneck", "agree",
 * "no_gain", "not_modelled", "flag"}], "views": [{"model", "topic", "finding",
 * "direction", "value", "share", "contradiction"}]} (docs/advisor.md). */
void ws_report_advice_json(struct cJSON *root, const ws_advice *a);
/* `sweep --json` (docs/sweep.md): {"schema": "warpsight-sweep/1", "kernel",
 * "total_threads", "rule", "gpus", "models", "rows": [...]}; t's block and
 * grid must be set. */
struct cJSON *ws_report_sweep_json(const ws_sweep_table *t, uint64_t total_threads,
                                   const char *rule);
/* o[key] = v, or null when v is not finite. */
void ws_report_json_num_or_null(struct cJSON *o, const char *key, double v);
/* root.counterfactuals = {"ranked_by", "items": [{"change", "saving_ms",
 * "stance", "addresses_bottleneck", "models_disagree"}]}. */
void ws_report_counterfactuals_json(struct cJSON *root, const ws_cf_table *t);
/* root.hot_lines = [{"line", "file", "line_number", "share",
 * "path_latency_cycles", "source"}], as ws_report_lines ranks them. */
/* What a line metric ranks by, in words ("dependency-path latency"), as
 * the --lines heading and the HTML report's source view name it. */
const char *ws_report_line_metric_name(ws_line_metric m);
void ws_report_lines_json(struct cJSON *root, const ws_profile *p, const ws_model_result *primary,
                          size_t top, const char *const *source);

#endif
