// Argument checks with LAPACK-style messages. Checks run in argument order and stop at the first failure,
// as LAPACK's XERBLA reports the first invalid argument; nothing is written when one fails.
#pragma once

#include <string>

#include "context.hpp"

namespace smallla {

class arg_check {
public:
    arg_check(context &ctx, const char *fname) : ctx_(ctx), fname_(fname) {}

    bool ok() const { return status_ == SMALLLA_SUCCESS; }
    smallla_status_t status() const { return status_; }

    // "argument <argno> (<name> = <value>) must be <rule>"
    arg_check &require(bool cond, int argno, const char *name, long long value, const std::string &rule) {
        if (ok() && !cond) fail_with(argno, std::string(name) + " = " + std::to_string(value), rule);
        return *this;
    }
    arg_check &nonneg(int argno, const char *name, long long value) {
        return require(value >= 0, argno, name, value, ">= 0");
    }
    // ld >= max(1, rows); rows_name names the quantity, e.g. "n".
    arg_check &leading_dim(int argno, const char *name, long long ld, const char *rows_name, long long rows) {
        return require(ld >= (rows > 1 ? rows : 1), argno, name, ld,
                       ">= max(1, " + std::string(rows_name) + " = " + std::to_string(rows) + ")");
    }
    // A stride must separate consecutive items (only matters when there are two or more).
    arg_check &stride(int argno, const char *name, long long value, const char *what, long long min, int batch) {
        return require(batch <= 1 || value >= min, argno, name, value,
                       ">= " + std::string(what) + " = " + std::to_string(min));
    }
    arg_check &not_null(int argno, const char *name, const void *p, bool needed = true) {
        if (ok() && needed && p == nullptr) fail_with(argno, std::string(name) + " = NULL", "not be NULL", false);
        return *this;
    }
    arg_check &custom(bool cond, int argno, const std::string &what, const std::string &rule) {
        if (ok() && !cond) fail_with(argno, what, rule, false);
        return *this;
    }

private:
    void fail_with(int argno, const std::string &what, const std::string &rule, bool be = true) {
        status_ = fail(&ctx_, SMALLLA_INVALID_VALUE,
                       std::string(fname_) + ": argument " + std::to_string(argno) + " (" + what + ") must " +
                           (be ? "be " : "") + rule);
    }
    context &ctx_;
    const char *fname_;
    smallla_status_t status_ = SMALLLA_SUCCESS;
};

}  // namespace smallla
