/*===- csv_reader.c - line-numbered CSV records through libcsv -------------===*
 *
 * Fields of the current record are copied into one growing arena; the field
 * pointers are fixed up when the record ends, so a 1 MB field costs one
 * buffer, not one allocation per field.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel_util.h"

#include "cm_error.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *arena;                       /* field bytes, NUL-separated      */
  size_t used, capacity;             /* bytes in use / allocated        */
  size_t offsets[CM_CSV_MAX_FIELDS]; /* start of each field in arena    */
  char *fields[CM_CSV_MAX_FIELDS];   /* fixed-up pointers for callbacks */
  size_t numFields;                  /* fields of the current record    */
  size_t line;                       /* physical line being fed         */
  const char *name;                  /* for messages                    */
  CmCsvRecordFn onRecord;            /* the consumer                    */
  void *context;                     /* its state                       */
  CmStatus status;                   /* first failure, sticks          */
  CmError *err;                      /* where failures are described    */
} CsvState;

static void onField(void *data, size_t length, void *user) {
  CsvState *s = user;
  if (s->status != CM_OK)
    return;
  if (s->numFields == CM_CSV_MAX_FIELDS) {
    s->status =
        cmErrorSet(s->err, CM_ERR_FORMAT, "%s:%zu: more than %d columns",
                   s->name, s->line, CM_CSV_MAX_FIELDS);
    return;
  }
  if (length && memchr(data, '\0', length)) { /* C strings would cut it */
    s->status =
        cmErrorSet(s->err, CM_ERR_FORMAT, "%s:%zu: a field holds a NUL byte",
                   s->name, s->line);
    return;
  }
  if (s->used + length + 1 > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity < s->used + length + 1)
      capacity *= 2;
    char *arena = realloc(s->arena, capacity);
    if (!arena) {
      s->status = cmErrorSet(s->err, CM_ERR_NOMEM, "%s:%zu: out of memory",
                             s->name, s->line);
      return;
    }
    s->arena = arena;
    s->capacity = capacity;
  }
  if (length)
    memcpy(s->arena + s->used, data, length);
  s->arena[s->used + length] = '\0';
  s->offsets[s->numFields++] = s->used;
  s->used += length + 1;
}

static void onRecordEnd(int terminator, void *user) {
  (void)terminator;
  CsvState *s = user;
  size_t n = s->numFields;
  s->numFields = 0;
  s->used = 0;
  if (s->status != CM_OK)
    return;
  /* A blank line is one empty field: skip it. */
  if (n == 0 || (n == 1 && s->arena[s->offsets[0]] == '\0'))
    return;
  for (size_t i = 0; i < n; i++)
    s->fields[i] = s->arena + s->offsets[i];
  s->status = s->onRecord(s->context, s->fields, n, s->line, s->err);
}

CmStatus cmCsvReadStream(FILE *stream, const char *name, CmCsvRecordFn onRecord,
                         void *context, CmError *err) {
  struct csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0)
    return cmErrorSet(err, CM_ERR_NOMEM, "%s: out of memory", name);
  CsvState s = {.name = name,
                .onRecord = onRecord,
                .context = context,
                .status = CM_OK,
                .err = err};
  char *line = NULL;
  size_t lineCapacity = 0;
  ssize_t length;
  while (s.status == CM_OK &&
         (length = getline(&line, &lineCapacity, stream)) >= 0) {
    s.line++;
    if (csv_parse(&parser, line, (size_t)length, onField, onRecordEnd, &s) !=
            (size_t)length &&
        s.status == CM_OK)
      s.status = cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: malformed CSV (%s)",
                            name, s.line, csv_strerror(csv_error(&parser)));
  }
  if (s.status == CM_OK && ferror(stream))
    s.status =
        cmErrorSet(err, CM_ERR_IO, "%s: read error: %s", name, strerror(errno));
  if (s.status == CM_OK && csv_fini(&parser, onField, onRecordEnd, &s) != 0 &&
      s.status == CM_OK)
    s.status = cmErrorSet(err, CM_ERR_FORMAT,
                          "%s:%zu: malformed CSV (unterminated quoted field)",
                          name, s.line);
  free(line);
  free(s.arena);
  csv_free(&parser);
  return s.status;
}

CmStatus cmCsvReadFile(const char *path, const char *name,
                       CmCsvRecordFn onRecord, void *context, CmError *err) {
  FILE *stream = fopen(path, "r");
  if (!stream)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot open: %s", name,
                      strerror(errno));
  CmStatus status = cmCsvReadStream(stream, name, onRecord, context, err);
  fclose(stream);
  return status;
}
