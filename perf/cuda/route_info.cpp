// smallla-route-info: what the CUDA routing tables say, for the tuner (perf/cuda/tune_routing.py) and for people:
// for every routine, precision and order up to --max-n (default 1024), the kernel families that exist there and the
// family each table routes a batch of --batch matrices to (default 1000000). Host code only: it reads the tables
// (kernels/cuda/routing) as the dispatch does.
//   output lines: routine precision n exists=family,family,... sm90=family generic=family
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda/routing/routes.hpp"

using namespace smallla::cuda_kernels;

int main(int argc, char **argv) {
    int max_n = 1024;
    long long batch = 1000000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--max-n") == 0) max_n = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--batch") == 0) batch = std::atoll(argv[i + 1]);
    }
    const auto &routines = routine_names;
    const auto &families = family_names;
    for (int r = 0; r < routine_count; ++r)
        for (const char *p = "sdcz"; *p; ++p)
            for (int n = 1; n <= max_n; ++n) {
                std::printf("%s %c %d exists=", routines[r], *p, n);
                bool first = true;
                for (int f = 0; f < family_count; ++f)
                    if (family_exists(static_cast<routine>(r), static_cast<family>(f), *p, n)) {
                        std::printf("%s%s", first ? "" : ",", families[f]);
                        first = false;
                    }
                std::printf(" sm90=%s generic=%s\n",
                            families[(int)find_route(sm90_table, static_cast<routine>(r), *p, n, batch)],
                            families[(int)find_route(generic_table, static_cast<routine>(r), *p, n, batch)]);
            }
    return 0;
}
