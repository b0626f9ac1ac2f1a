// Xapian's rows of bench/match_bench.php: the same documents (one line of tokens each, doc = line
// number) indexed with positions, then queries in Xapian's QueryParser syntax (lines "KIND\tQUERY":
// AND by default, OR, NOT, phrases, wildcards, NEAR/n), each asked one at a time for every match
// (BoolWeight) and for the 10 best (BM25Weight, Xapian's own BM25). Prints per kind: "xapian KIND
// every|top10 queries qps p50_ms p99_ms matches" (the caller checks the matches where the syntax
// means what FTS5's does).
//   xapian_match TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_ROW]
#include <xapian.h>

#include "xapian_text.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

static double percentile(std::vector<double> v, double p)
{
	if (v.empty()) return 0.0;
	std::sort(v.begin(), v.end());
	return v[std::min(v.size() - 1, (size_t)(v.size() * p))];
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		std::cerr << "usage: xapian_match TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_ROW]\n";
		return 2;
	}
	double budget = argc > 4 ? std::atof(argv[4]) : 5.0;
	Xapian::WritableDatabase db(argv[3], Xapian::DB_CREATE_OR_OVERWRITE);
	xapian_index_text(db, argv[1]);
	std::ifstream qf(argv[2]);
	std::string line;
	std::vector<std::string> kinds;
	std::map<std::string, std::vector<std::string>> queries;
	while (std::getline(qf, line)) {
		size_t tab = line.find('\t');
		if (tab == std::string::npos) continue;
		std::string kind = line.substr(0, tab);
		if (!queries.count(kind)) kinds.push_back(kind);
		queries[kind].push_back(line.substr(tab + 1));
	}
	Xapian::QueryParser qp;
	qp.set_database(db);
	qp.set_default_op(Xapian::Query::OP_AND);
	const unsigned flags = Xapian::QueryParser::FLAG_BOOLEAN | Xapian::QueryParser::FLAG_PHRASE | Xapian::QueryParser::FLAG_WILDCARD;
	Xapian::Enquire enquire(db);
	for (const std::string &kind : kinds) {
		for (int top = 0; top < 2; top++) {
			std::vector<double> lat;
			unsigned long long matches = 0;
			auto start = std::chrono::steady_clock::now();
			for (const std::string &q : queries[kind]) {
				auto t = std::chrono::steady_clock::now();
				enquire.set_query(qp.parse_query(q, flags));
				if (top) {
					enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0));
					matches += enquire.get_mset(0, 10).size();
				} else {
					enquire.set_weighting_scheme(Xapian::BoolWeight());
					enquire.set_docid_order(Xapian::Enquire::ASCENDING);
					matches += enquire.get_mset(0, db.get_doccount()).size();
				}
				lat.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
				if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > budget) break;
			}
			double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
			std::printf("xapian %s %s %zu %.1f %.3f %.3f %llu\n", kind.c_str(), top ? "top10" : "every", lat.size(), lat.size() / secs,
			            percentile(lat, 0.5), percentile(lat, 0.99), matches);
		}
	}
	return 0;
}
