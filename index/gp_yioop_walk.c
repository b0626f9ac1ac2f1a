/* A conjunction's walk as Yioop's IntersectIterator, WordIterators and NegationIterators make
 * it (Yioop 2021), the walks' start and steps, and the count of their matches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_yioop_walk.h"

/* The next doc every word holds (where Yioop sees it), from w->next_doc on: 1 with *d and each
 * word's cursor on it, 0 when none is left. Without negated words Yioop's IntersectIterator
 * finds exactly these, its leapfrog over (generation, doc index) being the docs' order. */
static int next_common(walk *w, uint64_t *d)
{
	const gp_index *ix = w->ix;
	uint64_t want = w->next_doc;
	for (;;) {
		int moved = 0;
		for (size_t j = 0; j < w->n_distinct; j++) {
			const uint32_t t = w->distinct[j];
			uint64_t c = gp_index_first_at_least(ix->docs, w->cursor[j], ix->list_at[t + 1], want);
			w->cursor[j] = c;
			if (c == ix->list_at[t + 1]) return 0;
			if (ix->docs[c] > want) {
				want = ix->docs[c];
				moved = 1;
			}
		}
		if (moved) continue;
		int unseen = 0;
		const size_t g = w->q->gens ? gp_yioop_doc_generation(w->y, want) : 0;
		for (size_t j = 0; j < w->n_distinct && !unseen; j++) unseen = !gp_yioop_sees(w, j, g);
		if (!unseen) {
			*d = want;
			w->next_doc = want + 1;
			return 1;
		}
		want++;
	}
}

/* With negated words the walk is Yioop's own, iterator by iterator, because its
 * NegationIterator is not a set difference: it pairs a DocIterator over every doc record with
 * the word's WordIterator, ignores the end of its own sync, and that DocIterator moves 32 bytes
 * of doc records from where it was, or to where it is sent, whichever is further. So a doc whose
 * record starts less than 32 bytes after a match (or after a doc the negated word holds) is
 * passed over, and past the negated word's last doc the DocIterator's position stands for it.
 * Positions are (generation, byte offset of the doc record), as Yioop's iterators compare them;
 * one past a generation's records still compares as that generation's. */
typedef struct ypos {
	size_t g;
	double off;
} ypos;
#define Y_END ((size_t)-1)

static int ypos_cmp(ypos a, ypos b)
{
	if (a.g != b.g) return a.g < b.g ? -1 : 1;
	return a.off < b.off ? -1 : a.off > b.off;
}

static double gen_units(const gp_yioop_docs *y, size_t g)
{
	return (double)(y->base[g + 1] - y->base[g]);
}

/* a word's WordIterator: its cursor's posting, past the generations Yioop does not see it in */
static ypos word_pos(walk *w, size_t slot, uint32_t t, uint64_t *cur)
{
	const gp_index *ix = w->ix;
	while (*cur < ix->list_at[t + 1] && w->seen[slot] && !gp_yioop_sees(w, slot, gp_yioop_doc_generation(w->y, ix->docs[*cur]))) (*cur)++;
	if (*cur == ix->list_at[t + 1]) return (ypos){Y_END, 0};
	const size_t g = gp_yioop_doc_generation(w->y, ix->docs[*cur]);
	return (ypos){g, 16.0 * (double)(ix->docs[*cur] - w->y->base[g])};
}

/* WordIterator::advance($target): nothing where it is at or past it, else its first posting at
 * or after it */
static void word_advance(walk *w, size_t slot, uint32_t t, uint64_t *cur, ypos target)
{
	const gp_index *ix = w->ix;
	ypos at = word_pos(w, slot, t, cur);
	if (at.g == Y_END || ypos_cmp(at, target) >= 0) return;
	uint64_t global;
	if (target.g >= w->y->n_gens) {
		global = UINT64_MAX;
	} else {
		/* nextPostingOffsetDocOffset: the doc index of a byte offset ($doc_offset >> 4) */
		const double index = fmin(floor(floor(target.off) / 16), gen_units(w->y, target.g));
		global = w->y->base[target.g] + (uint64_t)index;
	}
	*cur = gp_index_first_at_least(ix->docs, *cur, ix->list_at[t + 1], global);
	(void)word_pos(w, slot, t, cur);
}

void gp_yioop_doc_generation_to(const walk *w, doc_it *a, size_t g)
{
	a->g = g;
	a->c = 0;
	if (g < w->y->n_gens) a->len = 16 * gen_units(w->y, g);
}

static ypos doc_pos(const walk *w, const doc_it *a)
{
	if (a->g >= w->y->n_gens || a->c > a->len) return (ypos){Y_END, 0};
	return (ypos){a->g, a->c};
}

/* DocIterator::advance($target) as Yioop writes it: advanceSeenDocs steps 32 bytes (4 x
 * DOC_KEY_LEN) from the current offset, then the target's offset is taken where it is further */
static void doc_advance(const walk *w, doc_it *a, const ypos *target)
{
	double num = fmin(1, (a->len - a->n) / 32);
	a->n = a->c + 32 * num;
	if (a->c < a->n) {
		a->c = a->n;
	} else {
		gp_yioop_doc_generation_to(w, a, a->g + 1);
		a->n = a->c;
	}
	if (a->c > a->len) {
		gp_yioop_doc_generation_to(w, a, a->g + 1);
		a->n = a->c;
	}
	if (target && target->g != Y_END) {
		if (a->g < target->g) {
			gp_yioop_doc_generation_to(w, a, target->g);
			a->n = a->c;
		}
		if (a->g == target->g) {
			a->c = fmax(a->c, target->off);
			if (a->c > a->len) {
				gp_yioop_doc_generation_to(w, a, a->g + 1);
				a->n = a->c;
			}
		}
	}
}

/* NegationIterator::currentGenDocOffsetWithWord: its sync (whose end Yioop ignores), then its
 * DocIterator's position */
static ypos negation_pos(walk *w, size_t k)
{
	doc_it *a = &w->all[k];
	const uint32_t t = w->q->negated[k];
	int changed_all = 0, changed_term = 0;
	ypos old_all = {0, 0}, old_term = {0, 0};
	int c;
	if (w->neg_empty[k]) return doc_pos(w, a);
	do {
		ypos all = doc_pos(w, a);
		if (all.g == Y_END || (changed_all && ypos_cmp(all, old_all) == 0)) break;
		ypos term = word_pos(w, 64 + k, t, &w->neg_cursor[k]);
		if (term.g == Y_END || (changed_term && ypos_cmp(term, old_term) == 0)) break;
		c = ypos_cmp(all, term);
		if (c > 0) {
			word_advance(w, 64 + k, t, &w->neg_cursor[k], all);
			old_term = term;
			changed_term = 1;
			changed_all = 0;
		} else if (c == 0) {
			doc_advance(w, a, &term);
			old_all = all;
			changed_term = 0;
			changed_all = 1;
		}
	} while (c >= 0);
	return doc_pos(w, a);
}

/* iterator i of the IntersectIterator: the distinct words, then the negations */
static ypos iterator_pos(walk *w, size_t i)
{
	if (i < w->n_distinct) return word_pos(w, i, w->distinct[i], &w->cursor[i]);
	return negation_pos(w, i - w->n_distinct);
}

static void iterator_advance(walk *w, size_t i, ypos target)
{
	if (i < w->n_distinct) word_advance(w, i, w->distinct[i], &w->cursor[i], target);
	else doc_advance(w, &w->all[i - w->n_distinct], &target);
}

/* IntersectIterator::syncGenDocOffsetsAmongstIterators: 1 with every iterator on one position,
 * 0 when one ends (or falls short of the largest, which ends Yioop's intersection too) */
static int intersect_sync(walk *w)
{
	const size_t n = w->n_distinct + w->q->n_negated;
	ypos at[128];
	ypos biggest = iterator_pos(w, 0);
	if (biggest.g == Y_END) return 0;
	at[0] = biggest;
	int all_same = 1;
	for (size_t i = 1; i < n; i++) {
		at[i] = iterator_pos(w, i);
		if (at[i].g == Y_END) return 0;
		const int c = ypos_cmp(at[i], biggest);
		if (c > 0) {
			biggest = at[i];
			all_same = 0;
		} else if (c < 0) {
			all_same = 0;
		}
	}
	if (all_same) return 1;
	size_t i = 0;
	long last_changed = -1;
	while ((long)i != last_changed) {
		if (ypos_cmp(at[i], biggest) < 0) {
			iterator_advance(w, i, biggest);
			at[i] = iterator_pos(w, i);
			if (at[i].g == Y_END) return 0;
			const int c = ypos_cmp(at[i], biggest);
			if (c < 0) return 0;
			if (c > 0) {
				last_changed = (long)i;
				biggest = at[i];
			}
		}
		if (++i == n) {
			i = 0;
			if (last_changed < 0) last_changed = 0;
		}
	}
	return 1;
}

int gp_yioop_next_match(walk *w, uint64_t *d)
{
	if (w->q->n_negated == 0) return next_common(w, d);
	if (w->started) {
		/* IntersectIterator::advance: its first word to its next posting */
		w->cursor[0]++;
	}
	w->started = 1;
	if (!intersect_sync(w)) return 0;
	*d = w->ix->docs[w->cursor[0]];
	for (size_t j = 1; j < w->n_distinct; j++) {
		if (w->ix->docs[w->cursor[j]] != *d) return 0;   /* cannot be: the words agree on it */
	}
	return 1;
}

/* A walk over q's conjunction (IntersectIterator), set at its start: 1, or 0 when it has no
 * matches at all (a word Yioop finds nowhere). */
int gp_yioop_walk_init(walk *w, const gp_index *ix, const gp_yioop_query *q, const gp_yioop_face *face, int summary_attr)
{
	memset(w, 0, sizeof(*w));
	w->ix = ix;
	w->y = ix->yioop;
	w->q = q;
	w->face = face;
	w->summary_attr = summary_attr;
	/* the distinct words, in the order they first come (PhraseModel's distinct_word_keys) */
	for (size_t i = 0; i < q->n_words; i++) {
		size_t j = 0;
		while (j < w->n_distinct && w->distinct[j] != q->words[i]) j++;
		if (j == w->n_distinct) {
			w->distinct[j] = q->words[i];
			w->n_distinct++;
		}
		w->map[i] = j;
	}
	for (size_t j = 0; j < w->n_distinct; j++) {
		if (w->distinct[j] >= ix->n_terms) return 0;   /* a word in no generation: no matches */
		w->cursor[j] = ix->list_at[w->distinct[j]];
	}
	for (size_t i = 0; i < q->n_words; i++) {
		if (!q->gens || !q->gens[i] || w->seen[w->map[i]]) continue;
		if (q->n_gens[i] == 0) return 0;   /* Yioop sees the word nowhere */
		w->seen[w->map[i]] = q->gens[i];
		w->n_seen[w->map[i]] = q->n_gens[i];
	}
	for (size_t k = 0; k < q->n_negated; k++) {
		/* a negated word Yioop finds nowhere leaves its DocIterator alone (it excludes nothing,
		 * but still steps) */
		const uint32_t t = q->negated[k];
		w->neg_empty[k] = t >= ix->n_terms || (q->gens && q->gens[q->n_words + k] && q->n_gens[q->n_words + k] == 0);
		if (!w->neg_empty[k]) {
			w->neg_cursor[k] = ix->list_at[t];
			if (q->gens && q->gens[q->n_words + k]) {
				w->seen[64 + k] = q->gens[q->n_words + k];
				w->n_seen[64 + k] = q->n_gens[q->n_words + k];
			}
		}
		gp_yioop_doc_generation_to(w, &w->all[k], 0);   /* DocIterator::reset */
		w->all[k].n = 0;
	}
	return 1;
}

/* One step of a conjunction: 1 with *got set (and *it, the match's item) where it found a match
 * (*got 0: the match's item is dropped: not the phrase, a record Yioop drops), 0 when it is done. */
int gp_yioop_walk_step(walk *w, item *it, int *got, int *rc)
{
	uint64_t d;
	*got = 0;
	*rc = GP_OK;
	if (!gp_yioop_next_match(w, &d)) return 0;
	if ((*rc = gp_yioop_make_item(w, d, it)) != GP_OK) return 0;
	*got = !w->why && it->skip >= 0;
	return 1;
}

/* The walk's next doc that counts (its quotes' words checked), into *head (UINT64_MAX: none
 * left); GP_OK, or an error, or GP_OK with *why set (a doc it does not cover). */
static int next_counted(walk *w, uint64_t *head, const char **why)
{
	uint64_t d;
	*head = UINT64_MAX;
	while (gp_yioop_next_match(w, &d)) {
		if (w->q->n_quotes) {
			item it;
			int rc = gp_yioop_make_item(w, d, &it);
			if (rc != GP_OK) return rc;
			if (w->why) {
				*why = w->why;
				return GP_OK;
			}
			if (it.skip < 0) continue;
		}
		*head = d;
		break;
	}
	return GP_OK;
}

/* The docs of the union of the conjunctions, counted: each walk's docs increase, so a merge of
 * fresh walks counts each doc once (a quote's words checked in each). */
int gp_yioop_count_matches(walk *ws, size_t n, const gp_yioop_query *qs, const gp_index *ix, const gp_yioop_face *face,
                         int summary_attr, uint64_t *count, const char **why)
{
	uint64_t *head = malloc((n + 1) * sizeof(*head));
	if (!head) return GP_ENOMEM;
	int rc = GP_OK;
	*count = 0;
	for (size_t c = 0; c < n; c++) {
		head[c] = UINT64_MAX;
		if (!gp_yioop_walk_init(&ws[c], ix, &qs[c], face, summary_attr)) continue;
		if ((rc = next_counted(&ws[c], &head[c], why)) != GP_OK || *why) goto done;
	}
	for (;;) {
		uint64_t low = UINT64_MAX;
		for (size_t c = 0; c < n; c++) if (head[c] < low) low = head[c];
		if (low == UINT64_MAX) break;
		(*count)++;
		for (size_t c = 0; c < n; c++) {
			if (head[c] != low) continue;
			if ((rc = next_counted(&ws[c], &head[c], why)) != GP_OK || *why) goto done;
		}
	}
done:
	free(head);
	return rc;
}
