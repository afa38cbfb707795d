// The host backend of getrf_iter: OpenMP over the batch, one matrix per iteration of the loop, for the four
// precisions (one template, instantiated below).
#include <omp.h>

#include <vector>

#include "backend.hpp"
#include "getrf_iter_host.hpp"

namespace smallla {
namespace host {

template <class T> smallla_status_t getrf_iter(context &, const getrf_iter_args<T> &a) {
    using host_kernels::iter_scratch;
    const int n = a.n;
    const int threads = omp_get_max_threads();
    // Scratch for every thread, allocated before the parallel loop (where an exception could not be caught).
    std::vector<T> scalars((size_t)iter_scratch<T>::scalars(n) * threads);
    std::vector<int> ints((size_t)iter_scratch<T>::ints(n) * threads);
    const double work = (double)n * n * n * (double)a.opts.max_sweeps / 3.0;
    const bool parallel = threads > 1 && a.batch > 1 && a.batch * work >= 1.0e5;
    auto run = [&](auto A, auto LU) {
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
        for (int b = 0; b < a.batch; ++b) {
            const int t = omp_get_thread_num();
            T *sc = scalars.data() + (size_t)iter_scratch<T>::scalars(n) * t;
            int *ic = ints.data() + (size_t)iter_scratch<T>::ints(n) * t;
            const long long nn = (long long)n * n;
            iter_scratch<T> s{sc, sc + nn, sc + 2 * nn, sc + 3 * nn, ic, ic + n, ic + 2 * n};
            const host_kernels::iter_outcome out =
                host_kernels::getrf_iter_one<T>(n, A[b], A.ld, LU[b], LU.ld, a.ipiv[b], a.opts, s);
            a.info[b] = out.info;
            if (a.sweeps != nullptr) a.sweeps[b] = out.sweeps;
        }
    };
    if (a.A.is_pointer_array()) run(a.A.pointers(), a.LU.pointers());
    else run(a.A.strided(), a.LU.strided());
    return SMALLLA_SUCCESS;
}

template smallla_status_t getrf_iter<float>(context &, const getrf_iter_args<float> &);
template smallla_status_t getrf_iter<double>(context &, const getrf_iter_args<double> &);
template smallla_status_t getrf_iter<complex<float>>(context &, const getrf_iter_args<complex<float>> &);
template smallla_status_t getrf_iter<complex<double>>(context &, const getrf_iter_args<complex<double>> &);

}  // namespace host
}  // namespace smallla
