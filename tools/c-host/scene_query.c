/*
 * Scene queries from C: loads a scene three ways (memory-mapped .exs file, a
 * caller-owned buffer holding the same bytes, and import + prepare of a STEP
 * or IGES file), lists the bodies (name, kind, pieces, bounding box) and
 * exercises the error paths (NULL pointers, missing file, corrupt bytes,
 * unknown body, short name buffer).
 *
 * usage: scene_query SCENE.exs MODEL.(step|igs) [--leak]
 * (--leak deliberately does not free one scene: the valgrind test uses it to
 * show that a leak is detected.)
 * Output: one "key=value" line per fact (read by tests/capi/capi_host.rs).
 */
#include <string.h>
#include "common.h"

static unsigned char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* one spare byte so the copy can be placed at an odd address */
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf + 1, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(1); }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void list_bodies(const char *label, const ext_scene *scene) {
    uint32_t count = 0;
    CHECK(ext_scene_body_count(scene, &count));
    printf("%s.bodies=%u\n", label, count);
    for (uint32_t b = 0; b < count; b++) {
        size_t len = 0;
        CHECK(ext_scene_body_name(scene, b, NULL, 0, &len));
        char *name = malloc(len + 1);
        CHECK(ext_scene_body_name(scene, b, name, len + 1, &len));
        ext_body_info info;
        CHECK(ext_scene_body_info(scene, b, &info));
        ext_aabb box;
        CHECK(ext_scene_body_bbox(scene, b, &box));
        if (memcmp(&box, &info.bbox, sizeof box) != 0) { fprintf(stderr, "bbox differs\n"); exit(1); }
        printf("%s.body%u name=%s kind=%u pieces=%u edges=%u vertices=%u bbox=%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
               label, b, name, (unsigned)info.kind, info.piece_count, info.edge_count, info.vertex_count,
               box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z);
        uint32_t found = 0;
        CHECK(ext_scene_find_body(scene, name, &found));
        if (found > b) { fprintf(stderr, "find_body(%s) = %u > %u\n", name, found, b); exit(1); }
        free(name);
    }
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) { fprintf(stderr, "usage: %s SCENE.exs MODEL.(step|igs) [--leak]\n", argv[0]); return 2; }
    int leak = argc == 4 && strcmp(argv[3], "--leak") == 0;
    ext_host_check_abi();
    printf("version=%s header=%s abi=%u\n", ext_version(), EXT_VERSION, ext_abi_version());

    ext_scene *mapped = NULL, *buffered = NULL, *imported = NULL;
    CHECK(ext_scene_load_file(argv[1], &mapped));
    list_bodies("file", mapped);

    size_t len = 0;
    unsigned char *bytes = read_all(argv[1], &len);
    CHECK(ext_scene_load_buffer(bytes + 1, len, &buffered)); /* misaligned: copied */
    memmove(bytes, bytes + 1, len);                          /* malloc'd: aligned */
    ext_scene *aligned = NULL;
    CHECK(ext_scene_load_buffer(bytes, len, &aligned));
    list_bodies("buffer", buffered);
    ext_scene_free(aligned);

    /* a corrupt byte: rejected, output untouched */
    bytes[len / 2] ^= 0x5a;
    ext_scene *bad = (ext_scene *)0x1;
    EXPECT_STATUS(ext_scene_load_buffer(bytes, len, &bad), EXT_INVALID_SCENE);
    if (bad != (ext_scene *)0x1) { fprintf(stderr, "output written on failure\n"); return 1; }
    free(bytes);

    ext_prepare_options opts;
    CHECK(ext_prepare_options_default(&opts));
    CHECK(ext_scene_import(argv[2], &opts, &imported));
    list_bodies("import", imported);

    /* error paths */
    EXPECT_STATUS(ext_scene_load_file("/nonexistent/scene.exs", &bad), EXT_IO);
    EXPECT_STATUS(ext_scene_load_file(NULL, &bad), EXT_NULL_POINTER);
    EXPECT_STATUS(ext_scene_load_file(argv[1], NULL), EXT_NULL_POINTER);
    EXPECT_STATUS(ext_scene_load_buffer(NULL, 16, &bad), EXT_NULL_POINTER);
    EXPECT_STATUS(ext_scene_import(argv[1], NULL, &bad), EXT_IMPORT); /* a .exs is not STEP/IGES */
    opts.max_cone_angle = 2.0;
    EXPECT_STATUS(ext_scene_import(argv[2], &opts, &bad), EXT_INVALID_ARGUMENT);
    uint32_t n = 77;
    EXPECT_STATUS(ext_scene_body_count(NULL, &n), EXT_NULL_POINTER);
    ext_body_info info;
    EXPECT_STATUS(ext_scene_body_info(mapped, 1000, &info), EXT_NO_SUCH_BODY);
    EXPECT_STATUS(ext_scene_find_body(mapped, "no such body", &n), EXT_NO_SUCH_BODY);
    if (n != 77) { fprintf(stderr, "output written on failure\n"); return 1; }
    char tiny[1];
    size_t name_len = 0;
    CHECK(ext_scene_body_name(mapped, 0, NULL, 0, &name_len));
    if (name_len > 0) EXPECT_STATUS(ext_scene_body_name(mapped, 0, tiny, sizeof tiny, &name_len), EXT_BUFFER_TOO_SMALL);
    /* the message can be measured, then read in full */
    size_t need = ext_last_error_message(NULL, 0);
    char *msg = malloc(need + 1);
    if (ext_last_error_message(msg, need + 1) != need || strlen(msg) != need) { fprintf(stderr, "message length\n"); return 1; }
    free(msg);
    double m[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    ext_pose pose;
    EXPECT_STATUS(ext_pose_from_matrix(m, 0, &pose), EXT_INVALID_ARGUMENT);

    if (!leak) ext_scene_free(mapped);
    ext_scene_free(buffered);
    ext_scene_free(imported);
    ext_scene_free(NULL);
    printf("done\n");
    return 0;
}
