/*
 * extrack C++ API: a header-only C++17 wrapper over the C API (extrack.h).
 *
 *  - RAII handles: extrack::Scene (shared, immutable: copies share one scene),
 *    extrack::PointTracker and extrack::PairTracker (move-only, one thread at
 *    a time), freed automatically;
 *  - every failure throws extrack::Error (derived from std::runtime_error)
 *    carrying the library's message (what()) and its ext_status (status());
 *  - the plain C structs are used as value types (extrack::Vec3 = ext_vec3,
 *    extrack::Pose = ext_pose, extrack::ClosestPoint = ext_closest_point, ...);
 *  - units: millimetres, seconds, radians; poses map body-local to world.
 *
 *    #include <extrack.hpp>
 *    auto scene = extrack::Scene::import_file("part.step");   // or Scene::load("part.exs")
 *    extrack::PointTracker tracker(scene, 0);
 *    auto r = tracker.update({10, 0, 0}, {0, 0, 0}, 0.001);   // r.distance, r.point, r.normal
 *
 * Link: g++ -std=c++17 host.cpp -lextrack
 */

#ifndef EXTRACK_HPP
#define EXTRACK_HPP

#include "extrack.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace extrack {

/** A 3-vector (mm, mm/s, ...). */
using Vec3 = ext_vec3;
/** A unit quaternion w + xi + yj + zk. */
using Quat = ext_quat;
/** A rigid pose (body-local to world): position + unit quaternion. */
using Pose = ext_pose;
/** A rigid body's velocity: angular (rad/s) and linear (mm/s), world axes. */
using Twist = ext_twist;
/** The answer of a point query or a point tracker update. */
using ClosestPoint = ext_closest_point;
/** The answer of a body-body query or a pair tracker update. */
using PairResult = ext_pair_result;
/** Facts about one body of a scene. */
using BodyInfo = ext_body_info;
/** Options of the offline stage (Scene::import_file). */
using PrepareOptions = ext_prepare_options;
/** Settings of a tracker's controller. */
using TrackerConfig = ext_tracker_config;

/** Body selector of the queries: every body of the scene. */
inline constexpr std::uint32_t all_bodies = UINT32_MAX;

/** Every failure of the library: what() is its one-line message. */
class Error : public std::runtime_error {
public:
    /** An error with the status of the failed call and its message. */
    Error(ext_status status, const std::string &message) : std::runtime_error(message), status_(status) {}
    /** The C status of the failed call (never EXT_OK). */
    ext_status status() const noexcept { return status_; }
    /** The status' name, e.g. "EXT_IO". */
    const char *status_name() const noexcept { return ext_status_name(static_cast<std::uint32_t>(status_)); }

private:
    ext_status status_;
};

namespace detail {

/** The calling thread's last error message. */
inline std::string last_message() {
    std::size_t n = ext_last_error_message(nullptr, 0);
    std::string s(n + 1, '\0');
    ext_last_error_message(s.data(), s.size());
    s.resize(n);
    return s;
}

/** Throws extrack::Error unless `status` is EXT_OK. */
inline void check(ext_status status) {
    if (status != EXT_OK) {
        throw Error(status, last_message());
    }
}

template <typename T> const T *ptr(const std::optional<T> &o) { return o ? &*o : nullptr; }

struct SceneDeleter {
    void operator()(ext_scene *s) const noexcept { ext_scene_free(s); }
};
struct PointTrackerDeleter {
    void operator()(ext_point_tracker *t) const noexcept { ext_point_tracker_free(t); }
};
struct PairTrackerDeleter {
    void operator()(ext_pair_tracker *t) const noexcept { ext_pair_tracker_free(t); }
};

} // namespace detail

/** The library version, "MAJOR.MINOR.PATCH". */
inline std::string version() { return ext_version(); }

/** The identity pose (the body where its file put it). */
inline Pose identity_pose() noexcept { return Pose{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}}; }

/** A pose from a 4x4 homogeneous matrix (row-major unless `column_major`);
 *  throws unless the matrix is rigid. */
inline Pose pose_from_matrix(const std::array<double, 16> &m, bool column_major = false) {
    Pose p;
    detail::check(ext_pose_from_matrix(m.data(), column_major ? 1u : 0u, &p));
    return p;
}

/** The 4x4 homogeneous matrix of a pose (row-major unless `column_major`). */
inline std::array<double, 16> pose_to_matrix(const Pose &pose, bool column_major = false) {
    std::array<double, 16> m{};
    detail::check(ext_pose_to_matrix(&pose, column_major ? 1u : 0u, m.data()));
    return m;
}

/** The default offline-stage options (those of `extrack import`). */
inline PrepareOptions default_prepare_options() {
    PrepareOptions o;
    detail::check(ext_prepare_options_default(&o));
    return o;
}

/** The default tracker settings. */
inline TrackerConfig default_tracker_config() {
    TrackerConfig c;
    detail::check(ext_tracker_config_default(&c));
    return c;
}

class PointTracker;

/** A prepared scene: immutable, shareable between threads; copies share it. */
class Scene {
public:
    /** Loads a scene file (.exs, packed or plain), validating it completely. */
    static Scene load(const std::string &path) {
        ext_scene *s = nullptr;
        detail::check(ext_scene_load_file(path.c_str(), &s));
        return Scene(s);
    }
    /** Loads a scene from the bytes of an .exs file (copied; the buffer may
     *  be freed afterwards). */
    static Scene load_buffer(const void *data, std::size_t len) {
        ext_scene *s = nullptr;
        detail::check(ext_scene_load_buffer(static_cast<const std::uint8_t *>(data), len, &s));
        return Scene(s);
    }
    /** Imports a STEP/IGES file and prepares it (the offline stage: do it
     *  outside the servo loop). */
    static Scene import_file(const std::string &path) {
        ext_scene *s = nullptr;
        detail::check(ext_scene_import(path.c_str(), nullptr, &s));
        return Scene(s);
    }
    /** import_file with offline-stage options. */
    static Scene import_file(const std::string &path, const PrepareOptions &options) {
        ext_scene *s = nullptr;
        detail::check(ext_scene_import(path.c_str(), &options, &s));
        return Scene(s);
    }

    /** Number of bodies. */
    std::uint32_t body_count() const {
        std::uint32_t n = 0;
        detail::check(ext_scene_body_count(get(), &n));
        return n;
    }
    /** Facts about body `body`. */
    BodyInfo body_info(std::uint32_t body) const {
        BodyInfo info;
        detail::check(ext_scene_body_info(get(), body, &info));
        return info;
    }
    /** Name of body `body` (UTF-8, possibly empty). */
    std::string body_name(std::uint32_t body) const {
        std::size_t n = 0;
        detail::check(ext_scene_body_name(get(), body, nullptr, 0, &n));
        std::string s(n + 1, '\0');
        detail::check(ext_scene_body_name(get(), body, s.data(), s.size(), &n));
        s.resize(n);
        return s;
    }
    /** Index of the first body named `name`. */
    std::uint32_t find_body(const std::string &name) const {
        std::uint32_t b = 0;
        detail::check(ext_scene_find_body(get(), name.c_str(), &b));
        return b;
    }
    /** Closest point of body `body` (or all_bodies) to `point`, from scratch;
     *  `pose`: the body's motion relative to its placement. */
    ClosestPoint closest_point(const Vec3 &point, std::uint32_t body = all_bodies,
                               const std::optional<Pose> &pose = std::nullopt) const {
        ClosestPoint r;
        detail::check(ext_scene_closest_point(get(), body, detail::ptr(pose), &point, &r));
        return r;
    }
    /** Closest points of many points, in parallel (all or nothing). */
    std::vector<ClosestPoint> closest_points(const std::vector<Vec3> &points, std::uint32_t body = all_bodies,
                                             const std::optional<Pose> &pose = std::nullopt) const {
        std::vector<ClosestPoint> out(points.size());
        detail::check(
            ext_scene_closest_points(get(), body, detail::ptr(pose), points.data(), points.size(), out.data()));
        return out;
    }
    /** A point tracker of body `body` (see PointTracker). */
    inline PointTracker point_tracker(std::uint32_t body, const std::optional<TrackerConfig> &config = std::nullopt) const;

    /** The C handle (owned by this object and its copies). */
    const ext_scene *get() const noexcept { return scene_.get(); }

private:
    explicit Scene(ext_scene *s) : scene_(s, detail::SceneDeleter{}) {}
    std::shared_ptr<ext_scene> scene_;
};

/** Tracks the closest point of one body to a moving point, coherently from
 *  update to update (the first update is a cold start). Move-only; one
 *  thread at a time. It keeps its scene alive. */
class PointTracker {
public:
    /** A tracker of body `body` of `scene` (default settings unless `config`). */
    PointTracker(const Scene &scene, std::uint32_t body, const std::optional<TrackerConfig> &config = std::nullopt) {
        ext_point_tracker *t = nullptr;
        detail::check(ext_point_tracker_new(scene.get(), body, detail::ptr(config), &t));
        tracker_.reset(t);
    }
    /** One update: the closest point to `q` moving at `q_dot`, `dt` s after
     *  the previous update; the body at `pose` moving with `twist` (defaults:
     *  where its file put it, at rest). On error the tracker keeps its state. */
    ClosestPoint update(const Vec3 &q, const Vec3 &q_dot, double dt, const std::optional<Pose> &pose = std::nullopt,
                        const std::optional<Twist> &twist = std::nullopt) {
        ClosestPoint r;
        detail::check(
            ext_point_tracker_update(tracker_.get(), &q, &q_dot, detail::ptr(pose), detail::ptr(twist), dt, &r));
        return r;
    }
    /** Forgets the history: the next update is a cold start. */
    void reset() { detail::check(ext_point_tracker_reset(tracker_.get())); }
    /** The controller settings. */
    TrackerConfig config() const {
        TrackerConfig c;
        detail::check(ext_point_tracker_config(tracker_.get(), &c));
        return c;
    }
    /** Replaces the controller settings (validated). */
    void set_config(const TrackerConfig &c) { detail::check(ext_point_tracker_set_config(tracker_.get(), &c)); }
    /** The C handle (owned by this object). */
    ext_point_tracker *get() const noexcept { return tracker_.get(); }

private:
    std::unique_ptr<ext_point_tracker, detail::PointTrackerDeleter> tracker_;
};

inline PointTracker Scene::point_tracker(std::uint32_t body, const std::optional<TrackerConfig> &config) const {
    return PointTracker(*this, body, config);
}

/** Tracks the minimum distance (or penetration) between two moving bodies,
 *  coherently from update to update. Move-only; one thread at a time. It
 *  keeps its scenes alive. */
class PairTracker {
public:
    /** A tracker of body `body_a` of `scene_a` and body `body_b` of `scene_b`
     *  (the same scene may be given twice). */
    PairTracker(const Scene &scene_a, std::uint32_t body_a, const Scene &scene_b, std::uint32_t body_b,
                const std::optional<TrackerConfig> &config = std::nullopt) {
        ext_pair_tracker *t = nullptr;
        detail::check(ext_pair_tracker_new(scene_a.get(), body_a, scene_b.get(), body_b, detail::ptr(config), &t));
        tracker_.reset(t);
    }
    /** One update with the bodies' poses relative to their placements
     *  (nullopt: where their files put them) and twists (nullopt: at rest). */
    PairResult update(const std::optional<Pose> &pose_a, const std::optional<Pose> &pose_b, double dt,
                      const std::optional<Twist> &twist_a = std::nullopt,
                      const std::optional<Twist> &twist_b = std::nullopt) {
        PairResult r;
        detail::check(ext_pair_tracker_update_pose(tracker_.get(), detail::ptr(pose_a), detail::ptr(pose_b),
                                                   detail::ptr(twist_a), detail::ptr(twist_b), dt, &r));
        return r;
    }
    /** One update with row-major 4x4 pose matrices. */
    PairResult update_matrix(const std::array<double, 16> &pose_a, const std::array<double, 16> &pose_b, double dt,
                             const std::optional<Twist> &twist_a = std::nullopt,
                             const std::optional<Twist> &twist_b = std::nullopt) {
        PairResult r;
        detail::check(ext_pair_tracker_update(tracker_.get(), pose_a.data(), pose_b.data(), detail::ptr(twist_a),
                                              detail::ptr(twist_b), dt, &r));
        return r;
    }
    /** Forgets the history: the next update is a cold start. */
    void reset() { detail::check(ext_pair_tracker_reset(tracker_.get())); }
    /** The C handle (owned by this object). */
    ext_pair_tracker *get() const noexcept { return tracker_.get(); }

private:
    std::unique_ptr<ext_pair_tracker, detail::PairTrackerDeleter> tracker_;
};

/** The minimum distance (or penetration) between two bodies at the given
 *  poses (relative to their placements), from scratch. */
inline PairResult pair_distance(const Scene &scene_a, std::uint32_t body_a, const Scene &scene_b, std::uint32_t body_b,
                                const std::optional<Pose> &pose_a = std::nullopt,
                                const std::optional<Pose> &pose_b = std::nullopt) {
    PairResult r;
    detail::check(ext_pair_distance(scene_a.get(), body_a, detail::ptr(pose_a), scene_b.get(), body_b,
                                    detail::ptr(pose_b), &r));
    return r;
}

} // namespace extrack

#endif // EXTRACK_HPP
