/* The wire's readers (net/gp_wire.c): any bytes as a frame, its header read under a cap, then
 * the payload as the type says. What reads must build back to the same bytes (each message has
 * one encoding; a batch of trees, whose reader builds through the tree builder's rules, builds
 * back to bytes that read and build the same), and nothing is read, allocated or looped over
 * past what the input holds. */
#include "fuzz_common.h"
#include "qtree_check.h"
#include "../net/gp_wire.h"
#include "../net/gp_wire_trees.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < GP_WIRE_HEADER) return 0;
	gp_error err = {0};
	gp_wire_header h;
	if (gp_wire_header_read(data, 1u << 20, &h, &err) != GP_OK) return 0;
	const uint8_t *payload = data + GP_WIRE_HEADER;
	size_t len = size - GP_WIRE_HEADER;
	if (h.length < len) len = h.length;   /* a frame is its header's length; the rest is the next one's */
	gp_wire_buf b = {0};
	if (h.type == GP_WIRE_QUERY) {
		gp_wire_query q;
		if (gp_wire_get_query(payload, len, &q, &err) == GP_OK) {
			FUZZ_CHECK(gp_wire_put_query(&b, h.id, &q, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
			gp_wire_query_free(&q);
		} else {
			FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len);
		}
	} else if (h.type == GP_WIRE_TREES) {
		gp_wire_trees t, again;
		if (gp_wire_get_trees(payload, len, &t, &err) == GP_OK) {
			for (size_t i = 0; i < t.batch.n_queries; i++) check_tree(t.batch.trees[i]);
			FUZZ_CHECK(gp_wire_put_trees(&b, h.id, t.handle, &t.batch, &err) == GP_OK);
			FUZZ_CHECK(gp_wire_get_trees(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &again, &err) == GP_OK);
			gp_wire_buf b2 = {0};
			FUZZ_CHECK(gp_wire_put_trees(&b2, h.id, again.handle, &again.batch, &err) == GP_OK);
			FUZZ_CHECK(b2.len == b.len && memcmp(b2.p, b.p, b.len) == 0);
			gp_wire_buf_free(&b2);
			gp_wire_trees_free(&again);
			gp_wire_trees_free(&t);
		} else {
			FUZZ_CHECK((err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len) || err.code == GP_ENOMEM);
		}
	} else if (h.type == GP_WIRE_ANSWERS) {
		gp_answers a;
		int ranked, count_only;
		if (gp_wire_get_answers(payload, len, &a, &ranked, &count_only, &err) == GP_OK) {
			FUZZ_CHECK(gp_wire_put_answers(&b, h.id, &a, ranked, count_only, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
			gp_answers_free(&a);
		} else {
			FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len);
		}
	} else if (h.type == GP_WIRE_ERROR) {
		int status;
		char msg[GP_WIRE_MAX_MESSAGE + 1];
		if (gp_wire_get_error(payload, len, &status, msg, sizeof(msg), &err) == GP_OK) {
			FUZZ_CHECK(status >= GP_WIRE_STATUS_MIN && status <= GP_EFORMAT && strlen(msg) <= GP_WIRE_MAX_MESSAGE);
			FUZZ_CHECK(gp_wire_put_error(&b, h.id, status, msg, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
		}
	} else if (h.type == GP_WIRE_HELLO || h.type == GP_WIRE_OPEN) {
		uint32_t v;
		char text[GP_WIRE_MAX_PATH + 1];
		const int hello = h.type == GP_WIRE_HELLO;
		int rc = hello ? gp_wire_get_hello(payload, len, &v, text, sizeof(text), &err)
		               : gp_wire_get_open(payload, len, &v, text, sizeof(text), &err);
		if (rc == GP_OK) {
			FUZZ_CHECK(strlen(text) <= (hello ? GP_WIRE_MAX_NAME : GP_WIRE_MAX_PATH) && (hello || (text[0] && v <= 1)));
			FUZZ_CHECK((hello ? gp_wire_put_hello(&b, h.id, v, text, &err) : gp_wire_put_open(&b, h.id, v, text, &err)) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
		} else {
			FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len && text[0] == '\0');
		}
	} else if (h.type == GP_WIRE_WELCOME) {
		uint32_t version, most;
		if (gp_wire_get_welcome(payload, len, &version, &most, &err) == GP_OK) {
			FUZZ_CHECK(most >= GP_WIRE_MIN_PAYLOAD && most <= GP_WIRE_MAX_PAYLOAD);
			FUZZ_CHECK(gp_wire_put_welcome(&b, h.id, version, most, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
		}
	} else if (h.type == GP_WIRE_OPENED) {
		gp_wire_opened o;
		if (gp_wire_get_opened(payload, len, &o, &err) == GP_OK) {
			FUZZ_CHECK(gp_wire_put_opened(&b, h.id, &o, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
		}
	} else if (h.type == GP_WIRE_STATS_TEXT) {
		const char *text;
		uint32_t n;
		if (gp_wire_get_stats_text(payload, len, &text, &n, &err) == GP_OK) {
			FUZZ_CHECK(n <= GP_WIRE_MAX_STATS && (n == 0 || (text >= (const char *)payload && text + n <= (const char *)payload + len)));
			FUZZ_CHECK(memchr(text, 0, n) == NULL);
		}
	}
	gp_wire_buf_free(&b);
	return 0;
}
