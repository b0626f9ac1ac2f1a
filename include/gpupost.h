/* gpupost's engine as its faces see it (docs/DESIGN.md): the call's context and budget, decodes
 * and their results, devices, and the index (build, files, queries, answers). The faces (the PHP
 * extension; the server to come) include this and include/gpupost_codec.h, never a header below
 * them; nothing below knows a face. The headers gathered here are the contract as it stands. */
#ifndef GPUPOST_H
#define GPUPOST_H

#include "../engine/gp_dispatch.h"   /* gp_ctx, gp_decode, gp_index_search, devices */
#include "../index/gp_index.h"       /* gp_index: build, files, shards, doc lengths */
#include "../index/gp_yioop_archive.h" /* a Yioop bundle's summaries */
#include "../query/gp_query.h"       /* queries and their answers */
#include "../query/gp_qtree.h"       /* query trees, FTS5 MATCH expressions into them, and */
#include "../query/gp_match.h"       /* their answers on the host */
#include "../query/gp_tree_query.h"
#include "../query/gp_tokenize.h"     /* FTS5's unicode61 tokenizer */
#include "../codec/gp_budget.h"      /* gp_budget, gp_face: what a call may build */
#include "../codec/gp_trace.h"       /* a call's steps, timed (GPUPOST_TRACE) */

#endif
