/* The version 2 block's readers (index/gp_block.h) against plain references, on random blocks
 * that this test writes itself (docs/FORMATS.md's layout, any lower-bit width, not only the
 * writer's): the docs decoded a byte of upper bits at a time, the word's select, the zero
 * select from a cursor's word, a decoded block's search, the bit unpacker. Built and run by tests/c/run.sh under
 * ASan and UBSan. Each test prints one line; the exit status is the failures'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../index/gp_list_cursor.h"
#include "check.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

/* A block of n docs (increasing, from base) written with lower-bit width l into bytes; *b opened
 * over them. The bytes: header, upper words, lower bits (no positions). */
static int write_block(const uint64_t *docs, uint32_t n, uint64_t base, uint32_t l, uint8_t *bytes, size_t cap, gp_block *b)
{
	const uint64_t span = docs[n - 1] - base, words = gp_block_upper_words(span, n, l);
	const size_t len = GP_BLOCK_HEADER + (size_t)words * 8 + ((size_t)n * l + 7) / 8;
	if (len > cap) return 0;
	memset(bytes, 0, cap);
	bytes[0] = (uint8_t)l;
	uint8_t *upper = bytes + GP_BLOCK_HEADER, *low = upper + words * 8;
	for (uint32_t i = 0; i < n; i++) {
		const uint64_t v = docs[i] - base, bit = (v >> l) + i;
		upper[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		for (uint32_t k = 0; k < l; k++) {
			const uint64_t at = (uint64_t)i * l + k;
			if ((v >> k) & 1) low[at >> 3] |= (uint8_t)(1u << (at & 7));
		}
	}
	return gp_block_open(b, bytes, len, base, span, n, 0);
}

/* n increasing docs from base, gaps drawn so that some blocks are dense and some sparse. */
static void random_docs(uint64_t *docs, uint32_t n, uint64_t base, uint64_t max_gap)
{
	uint64_t d = base + next() % (max_gap + 1);
	for (uint32_t i = 0; i < n; i++) {
		docs[i] = d;
		d += 1 + next() % max_gap;
	}
}

static int test_block_docs(void)
{
	static uint8_t bytes[1 << 16];
	uint64_t docs[GP_BLOCK];
	uint32_t out[GP_BLOCK_DOCS_ROOM];
	for (int round = 0; round < 20000; round++) {
		const uint32_t n = 1 + (uint32_t)(next() % GP_BLOCK);
		const uint64_t max_gap = 1 + (next() % 4 == 0 ? next() % 3 : next() % ((uint64_t)1 << (next() % 24)));
		const uint64_t base = next() % 3 == 0 ? next() % 1000 : 0xFFFFFFFFull - (next() % (max_gap * (n + 2) + 1)) - max_gap * (n + 1);
		random_docs(docs, n, base, max_gap);
		if (docs[n - 1] > 0xFFFFFFFFull) continue;   /* below: the docs past 2^32 - 1 */
		const uint64_t span = docs[n - 1] - base;
		/* the writer's width, and any other that the format allows */
		const uint32_t l = next() % 2 ? gp_block_pick_l(span, n) : (uint32_t)(next() % 33);
		gp_block b;
		if (!write_block(docs, n, base, l, bytes, sizeof(bytes), &b)) continue;
		memset(out, 0xA5, sizeof(out));
		CHECKF(gp_block_docs(&b, out) == 1, "round %d: n %u l %u base %llu refused", round, n, l, (unsigned long long)base);
		for (uint32_t i = 0; i < n; i++) {
			CHECKF(out[i] == docs[i], "round %d: n %u l %u: doc %u is %u, not %llu", round, n, l, i, out[i], (unsigned long long)docs[i]);
		}
	}
	return 1;
}

/* A block whose docs pass 2^32 - 1 (what a crafted file may say): decoded with 0 returned, not a
 * wrapped doc taken as the answer. */
static int test_block_docs_past_32_bits(void)
{
	static uint8_t bytes[1 << 16];
	uint64_t docs[GP_BLOCK];
	uint32_t out[GP_BLOCK_DOCS_ROOM];
	for (int round = 0; round < 2000; round++) {
		const uint32_t n = 1 + (uint32_t)(next() % GP_BLOCK), l = (uint32_t)(next() % 33);
		const uint64_t base = 0xFFFFFFFFull - next() % 64;
		random_docs(docs, n, base, 1 + next() % 8);
		if (docs[n - 1] <= 0xFFFFFFFFull) docs[n - 1] = 0x100000000ull + next() % 16;
		gp_block b;
		if (!write_block(docs, n, base, l, bytes, sizeof(bytes), &b)) continue;
		CHECKF(gp_block_docs(&b, out) == 0, "round %d: n %u l %u: a doc past 2^32 - 1 not reported", round, n, l);
	}
	return 1;
}

static uint32_t select_plain(uint64_t x, uint32_t k)
{
	for (uint32_t p = 0; p < 64; p++) {
		if (((x >> p) & 1) && k-- == 0) return p;
	}
	return 64;
}

static int test_select64(void)
{
	for (int round = 0; round < 200000; round++) {
		uint64_t x = next();
		if (round % 3 == 1) x &= next();
		if (round % 3 == 2) x |= next();
		if (round % 1000 == 0) x = ~0ull;
		if (x == 0) continue;
		const uint32_t ones = (uint32_t)__builtin_popcountll(x), k = (uint32_t)(next() % ones);
		CHECKF(gp_popcount64(x) == ones, "popcount of %016llx", (unsigned long long)x);
		CHECKF(gp_select64(x, k) == select_plain(x, k), "select %u of %016llx: %u, not %u", k, (unsigned long long)x, gp_select64(x, k), select_plain(x, k));
	}
	return 1;
}

/* The zero select from any posting's word, as a cursor in the block calls it, against a walk. */
static int test_select_zero_from(void)
{
	static uint8_t bytes[1 << 16];
	uint64_t docs[GP_BLOCK];
	for (int round = 0; round < 5000; round++) {
		const uint32_t n = 1 + (uint32_t)(next() % GP_BLOCK);
		random_docs(docs, n, 0, 1 + next() % 300);
		gp_block b;
		if (!write_block(docs, n, 0, gp_block_pick_l(docs[n - 1], n), bytes, sizeof(bytes), &b)) continue;
		const uint64_t bits = (uint64_t)b.upper_words * 64;
		const uint32_t bi = (uint32_t)(next() % n);
		uint64_t upos = 0;
		for (uint32_t seen = 0;; upos++) {
			if ((gp_block_word(&b, upos >> 6) >> (upos & 63)) & 1 && seen++ == bi) break;
		}
		const uint64_t w = upos >> 6, ones = bi - gp_popcount64(gp_block_word(&b, w) & ((1ull << (upos & 63)) - 1));
		const uint64_t zeros_total = bits - n;
		for (uint64_t h = upos - bi + 1; h <= zeros_total + 1; h++) {
			uint64_t z = 0, seen = 0;
			for (; z < bits; z++) {
				if (!((gp_block_word(&b, z >> 6) >> (z & 63)) & 1) && ++seen == h) break;
			}
			CHECKF(gp_block_select_zero_from(&b, h, w, w * 64 - ones) == z, "round %d: zero %llu from posting %u", round, (unsigned long long)h, bi);
		}
	}
	return 1;
}

/* A decoded block's search, from any posting, for any doc up to the last: the first doc at least
 * x, as a plain scan finds it. */
static int test_search_decoded(void)
{
	static gp_list_cursor c;
	for (int round = 0; round < 20000; round++) {
		const uint32_t n = 1 + (uint32_t)(next() % GP_BLOCK);
		uint64_t docs[GP_BLOCK];
		random_docs(docs, n, next() % 2 ? 0 : 0xFFFFFFFFull - 100000, 1 + next() % 700);
		if (docs[n - 1] > 0xFFFFFFFFull) continue;
		c.blk.n = n;
		for (uint32_t i = 0; i < n; i++) c.buf[i] = (uint32_t)docs[i];
		for (uint32_t k = 0; k < GP_CURSOR_SCAN; k++) c.buf[n + k] = UINT32_MAX;
		const uint32_t bi = (uint32_t)(next() % n);
		const uint32_t x = c.buf[bi] + (uint32_t)(next() % (docs[n - 1] - docs[bi] + 1));
		uint32_t want = bi;
		while (c.buf[want] < x) want++;
		CHECKF(gp_cursor_search_decoded(&c, bi, x) == want, "round %d: from %u for %u", round, bi, x);
	}
	return 1;
}

/* n values of w bits unpacked at once (eight at a time with AVX2 where the processor has it)
 * equal to each read alone, at every width 1-32, start bit and count, streams ending right after
 * the last value or a few bytes on (the wide loads' bounds), and never reading past the end
 * (ASan: the stream is a heap block of exactly len bytes). */
static int test_bits_unpack(void)
{
	uint32_t out[300], want[300];
	for (int round = 0; round < 40000; round++) {
		const uint32_t w = 1 + (uint32_t)(next() % 32), n = (uint32_t)(next() % 260);
		const uint64_t at = next() % 80;
		const size_t len = (size_t)((at + (uint64_t)n * w + 7) / 8) + (size_t)(next() % 3 == 0 ? next() % 24 : 0);
		uint8_t *s = malloc(len ? len : 1);
		for (size_t i = 0; i < len; i++) s[i] = (uint8_t)next();
		for (uint32_t i = 0; i < n; i++) want[i] = gp_bits_get(s, len, at + (uint64_t)i * w, w);
		memset(out, 0xA5, sizeof(out));
		gp_bits_unpack(s, len, at, w, n, out);
		free(s);
		for (uint32_t i = 0; i < n; i++) CHECKF(out[i] == want[i], "round %d: w %u at %llu n %u len %zu: value %u", round, w, (unsigned long long)at, n, len, i);
		CHECKF(out[n] == 0xA5A5A5A5u, "round %d: wrote past %u values", round, n);
	}
	return 1;
}

/* A posting's positions (its first, then its gaps summed; eight at a time with AVX2 where the
 * processor has it) equal to a sum of the gaps read one at a time, at every gap width 0-32. */
static int test_block_positions(void)
{
	int32_t out[400];
	for (int round = 0; round < 40000; round++) {
		gp_block b;
		memset(&b, 0, sizeof(b));
		b.bf = (uint32_t)(next() % 33);
		b.bg = (uint32_t)(next() % 33);
		const uint32_t i = (uint32_t)(next() % 4), count = (uint32_t)(next() % 300);
		const uint64_t gaps_before = next() % 50;
		b.first_at = next() % 64;
		b.gaps_at = b.first_at + 4 * (uint64_t)b.bf;
		b.bits_len = (size_t)((b.gaps_at + (gaps_before + count) * b.bg + 7) / 8) + (size_t)(next() % 2 ? next() % 20 : 0);
		uint8_t *bits = malloc(b.bits_len ? b.bits_len : 1);
		for (size_t k = 0; k < b.bits_len; k++) bits[k] = (uint8_t)next();
		b.bits = bits;
		out[count] = 0x5A5A5A5A;
		gp_block_positions(&b, i, gaps_before, count, out);
		uint32_t p = gp_bits_get(bits, b.bits_len, b.first_at + (uint64_t)i * b.bf, b.bf);
		for (uint32_t k = 0; k < count; k++) {
			if (k) p += gp_bits_get(bits, b.bits_len, b.gaps_at + (gaps_before + k - 1) * b.bg, b.bg);
			CHECKF(out[k] == (int32_t)p, "round %d: bg %u count %u: position %u", round, b.bg, count, k);
		}
		CHECKF(out[count] == 0x5A5A5A5A, "round %d: wrote past %u positions", round, count);
		free(bits);
	}
	return 1;
}

int main(void)
{
	run("a posting's positions: its first and its gaps summed, every gap width", test_block_positions);
	run("bit-packed values unpacked at once equal to each read alone, every width", test_bits_unpack);
	run("a block's docs decoded a byte of upper bits at a time, every lower-bit width, bases up to 2^32 - 1", test_block_docs);
	run("a block whose docs pass 2^32 - 1 reported", test_block_docs_past_32_bits);
	run("a word's popcount and select", test_select64);
	run("the zero select from a cursor's word", test_select_zero_from);
	run("a decoded block's search", test_search_decoded);
	return summary();
}
