// Xapian's row of bench/index_bench.php: the same documents (one line of tokens each, doc =
// line number) indexed with positions, then the same queries (lines "and t1 t2 ..." or
// "phrase t1 t2 ..."), every match asked for in docid order with BoolWeight (no ranking), one
// query at a time; then the "and" lines ranked ("and10", "or10": the AND or OR of their terms,
// the 10 best by BM25Weight with k1 1.2 and b 0.75, Xapian's own BM25 variant).
//   xapian_bench TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_OP]
// Prints per operator: "xapian OP queries qps p50_ms p99_ms matches doc_sum" (matches and the sum
// of the matching docs let the caller check that Xapian found what gpupost found).
#include <xapian.h>

#include "xapian_text.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
	if (argc < 4) {
		std::cerr << "usage: xapian_bench TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_OP]\n";
		return 2;
	}
	double budget = argc > 4 ? std::atof(argv[4]) : 30.0;
	Xapian::WritableDatabase db(argv[3], Xapian::DB_CREATE_OR_OVERWRITE);
	auto t0 = std::chrono::steady_clock::now();
	Xapian::docid id = xapian_index_text(db, argv[1]);
	std::string line;
	double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	std::fprintf(stderr, "xapian: %u docs indexed in %.1f s\n", (unsigned)id, build);

	std::ifstream qf(argv[2]);
	std::vector<std::pair<std::string, std::vector<std::string>>> queries;
	while (std::getline(qf, line)) {
		std::istringstream words(line);
		std::string op, w;
		words >> op;
		std::vector<std::string> terms;
		while (words >> w) terms.push_back(w);
		if (!terms.empty()) queries.emplace_back(op, terms);
	}
	Xapian::Enquire enquire(db);
	for (const char *op : {"and", "phrase", "and10", "or10"}) {
		const std::string o(op);
		const bool ranked = o == "and10" || o == "or10";
		if (ranked) {
			enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0));
			enquire.set_docid_order(Xapian::Enquire::ASCENDING);   // ties: the smaller doc
		} else {
			enquire.set_weighting_scheme(Xapian::BoolWeight());
			enquire.set_docid_order(Xapian::Enquire::ASCENDING);
		}
		std::vector<double> lat;
		unsigned long long matches = 0, sum = 0;
		auto start = std::chrono::steady_clock::now();
		for (const auto &q : queries) {
			if (q.first != (ranked ? std::string("and") : o)) continue;
			auto a = std::chrono::steady_clock::now();
			Xapian::Query query = o == "and" || o == "and10"
				? Xapian::Query(Xapian::Query::OP_AND, q.second.begin(), q.second.end())
				: o == "or10" ? Xapian::Query(Xapian::Query::OP_OR, q.second.begin(), q.second.end())
				: Xapian::Query(Xapian::Query::OP_PHRASE, q.second.begin(), q.second.end(), (Xapian::termcount)q.second.size());
			enquire.set_query(query);
			Xapian::MSet m = enquire.get_mset(0, ranked ? 10 : db.get_doccount());
			for (Xapian::MSetIterator it = m.begin(); it != m.end(); ++it) sum += *it - 1;
			matches += m.size();
			lat.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
			if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > budget) break;
		}
		if (lat.empty()) continue;
		double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		std::sort(lat.begin(), lat.end());
		std::printf("xapian %s %zu %.1f %.4f %.4f %llu %llu\n", op, lat.size(), lat.size() / total,
		            1e3 * lat[lat.size() / 2], 1e3 * lat[std::min(lat.size() - 1, lat.size() * 99 / 100)],
		            matches, sum);
	}
	return 0;
}
