// A C++17 host of extrack (include/extrack.hpp): imports a STEP/IGES model,
// loads a prepared scene, queries closest points, drives a point tracker and
// a pair tracker, and shows that every failure is an extrack::Error carrying
// the library's message.
//
// Build: g++ -std=c++17 -I include examples/cpp/host.cpp -L target/release -lextrack
// usage: host MODEL.step SCENE.exs
// Output lines (key=value), checked by tests/cpp_host.rs:
//   version=V
//   import.bodies=N load.bodies=N
//   body I name=NAME kind=K pieces=P
//   cold x=..,..,.. d=D sd=SD face=F
//   batch n=N max_diff=X
//   track steps=N min_d=D max_d=D max_diff_cold=X
//   pair d=D pen=P tracked_d=D
//   expected EXT_...: message
//   done
#include <extrack.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace {

template <typename F> void expect_error(const char *what, F &&f) {
    try {
        f();
        std::printf("UNEXPECTED success: %s\n", what);
    } catch (const extrack::Error &e) {
        std::printf("expected %s: %s\n", e.status_name(), e.what());
    }
}

// A point on a circle of radius r about the box centre c, in the plane z = c.z.
extrack::Vec3 orbit(const extrack::Vec3 &c, double r, double t) {
    return {c.x + r * std::cos(t), c.y + r * std::sin(t), c.z};
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s MODEL.step SCENE.exs\n", argv[0]);
        return 2;
    }
    try {
        std::printf("version=%s\n", extrack::version().c_str());
        extrack::Scene imported = extrack::Scene::import_file(argv[1]);
        extrack::Scene scene = extrack::Scene::load(argv[2]);
        std::printf("import.bodies=%u load.bodies=%u\n", imported.body_count(), scene.body_count());
        for (std::uint32_t b = 0; b < scene.body_count(); ++b) {
            extrack::BodyInfo info = scene.body_info(b);
            std::printf("body %u name=%s kind=%u pieces=%u\n", b, scene.body_name(b).c_str(),
                        static_cast<unsigned>(info.kind), info.piece_count);
        }

        // cold queries around body 0's box
        extrack::BodyInfo info = scene.body_info(0);
        extrack::Vec3 c{(info.bbox.min.x + info.bbox.max.x) / 2, (info.bbox.min.y + info.bbox.max.y) / 2,
                        (info.bbox.min.z + info.bbox.max.z) / 2};
        double size = std::max({info.bbox.max.x - info.bbox.min.x, info.bbox.max.y - info.bbox.min.y,
                                info.bbox.max.z - info.bbox.min.z});
        double r = size;
        extrack::Vec3 q0 = orbit(c, r, 0.0);
        extrack::ClosestPoint cold = scene.closest_point(q0, 0);
        std::printf("cold x=%.17g,%.17g,%.17g d=%.17g sd=%.17g face=%llu\n", q0.x, q0.y, q0.z, cold.distance,
                    cold.signed_distance, static_cast<unsigned long long>(cold.face_id));

        std::vector<extrack::Vec3> pts;
        for (int i = 0; i < 64; ++i) pts.push_back(orbit(c, r, 0.1 * i));
        std::vector<extrack::ClosestPoint> many = scene.closest_points(pts, 0);
        double max_diff = 0.0;
        for (std::size_t i = 0; i < pts.size(); i += 8)
            max_diff = std::max(max_diff, std::fabs(many[i].distance - scene.closest_point(pts[i], 0).distance));
        std::printf("batch n=%zu max_diff=%.3g\n", many.size(), max_diff);

        // a point orbiting the body at 1 kHz, tracked; the tracker is moved
        // into place (RAII, move-only) and keeps the scene alive
        extrack::PointTracker tracker = scene.point_tracker(0);
        const int steps = 500;
        const double dt = 0.001, w = 2.0;
        double min_d = std::numeric_limits<double>::infinity(), max_d = 0.0, diff = 0.0;
        for (int i = 0; i < steps; ++i) {
            double t = i * dt;
            extrack::Vec3 q = orbit(c, r, w * t);
            extrack::Vec3 qd{-r * w * std::sin(w * t), r * w * std::cos(w * t), 0.0};
            extrack::ClosestPoint a = tracker.update(q, qd, i == 0 ? 0.0 : dt);
            min_d = std::min(min_d, a.distance);
            max_d = std::max(max_d, a.distance);
            if (i % 100 == 99) diff = std::max(diff, std::fabs(a.distance - scene.closest_point(q, 0).distance));
        }
        std::printf("track steps=%d min_d=%.9g max_d=%.9g max_diff_cold=%.3g\n", steps, min_d, max_d, diff);

        // the body against a copy of itself moved away by 2 sizes along x
        extrack::Pose away = extrack::identity_pose();
        away.position.x = 2.0 * size;
        extrack::PairResult p = extrack::pair_distance(scene, 0, imported, 0, std::nullopt, away);
        extrack::PairTracker pair(scene, 0, imported, 0);
        extrack::PairResult tp{};
        for (int i = 0; i < 10; ++i) tp = pair.update(std::nullopt, away, i == 0 ? 0.0 : dt);
        std::printf("pair d=%.9g pen=%u tracked_d=%.9g\n", p.distance, p.penetrating, tp.distance);

        // every failure is an extrack::Error with the library's message
        expect_error("load", [] { extrack::Scene::load("/nonexistent/scene.exs"); });
        expect_error("import", [] { extrack::Scene::import_file("/nonexistent/model.step"); });
        expect_error("body", [&] { scene.point_tracker(scene.body_count()); });
        expect_error("nan", [&] {
            scene.closest_point({std::nan(""), 0.0, 0.0}, 0);
        });
        expect_error("dt", [&] { tracker.update(q0, {0, 0, 0}, -1.0); });
        expect_error("matrix", [] {
            std::array<double, 16> m{};
            extrack::pose_from_matrix(m);
        });
        expect_error("garbage", [] {
            const char bytes[] = "not a scene";
            extrack::Scene::load_buffer(bytes, sizeof bytes);
        });
        // a std::runtime_error, as documented
        try {
            extrack::Scene::load("/nonexistent/scene.exs");
        } catch (const std::runtime_error &e) {
            std::printf("runtime_error: %s\n", e.what());
        }
        std::printf("done\n");
    } catch (const extrack::Error &e) {
        std::fprintf(stderr, "error %s: %s\n", e.status_name(), e.what());
        return 1;
    }
    return 0;
}
