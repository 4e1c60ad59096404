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
/* `model --terms --json`: {"models": [{"model", "terms": [{"name", "unit",
 * "equation", "meaning"}], "bounds": [{"name", "limiter", "advice"}]}]}. */
struct cJSON *ws_report_model_declarations_json(const char *model);
/* One result: {"model", "status", "cycles", "time_ms", "floors",
 * "below_floor", "case", "limiter", "terms"}; for a model that did not run
 * {"model", "status": "missing-inputs" | "error", "missing": [...]}. */
struct cJSON *ws_report_model_json(const ws_model_result *r, int status, const ws_floors *fl);
/* root.floors = {"dram_ms", "dram_bytes", "issue_ms", "warp_insts", "issue_per_cycle"}. */
void ws_report_floors_json(struct cJSON *root, const ws_floors *fl);
/* root.advice = {"bottleneck", "items": [{"kind", "model", "topic", ...}]}. */
void ws_report_advice_json(struct cJSON *root, const ws_advice *a);
/* root.counterfactuals = {"ranked_by", "items": [...], "base_disagree"}. */
void ws_report_counterfactuals_json(struct cJSON *root, const ws_cf_table *t);

#endif
