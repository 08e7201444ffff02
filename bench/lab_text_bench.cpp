// lab_text_bench [LESSON.json]: laying out a long lesson text in the Lab (issue 29). A
// step whose text is at the lesson cap (16 KiB) against the same lesson with its shipped
// text (lesson 5), in the Lab at its 1280x800 width: the time from openLesson() to the
// first frame, and one relayout after a width change (a splitter drag, the runs panel
// shown or hidden); and the view's construction beside them. Prints medians of 7 and the
// long text's ratio to the shipped one.
#include "gui/views/lab/lab_view.h"
#include "gui/widgets/style.h"
#include "runtime/lab/shipped_lessons.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms(const QElapsedTimer& clock) {
    return double(clock.nsecsElapsed()) / 1e6;
}

// Lesson 5 with its step's text (both languages) grown to the 16 KiB cap.
QString longLesson(const QString& dir) {
    QFile in(QStringLiteral(ZEROLAB_SOURCE_DIR "/resources/lessons/05-activations-recompute.json"));
    in.open(QIODevice::ReadOnly);
    QJsonObject lesson = QJsonDocument::fromJson(in.readAll()).object();
    const QString sentence =
        QStringLiteral("Activations grow with micro-batch times sequence length and are not "
                       "sharded by ZeRO; recomputation keeps fewer of them. ");
    QString text;
    for (int i = 0; (text + sentence).toUtf8().size() < 16000; ++i)
        text += sentence + (i % 8 == 7 ? QStringLiteral("\n\n") : QString());
    QJsonArray steps = lesson[QStringLiteral("steps")].toArray();
    QJsonObject step = steps[0].toObject();
    step[QStringLiteral("text")] =
        QJsonObject{{QStringLiteral("en"), text}, {QStringLiteral("zh_CN"), text}};
    steps[0] = step;
    lesson[QStringLiteral("steps")] = steps;
    lesson[QStringLiteral("id")] = QStringLiteral("long-text");
    const QString path = dir + QStringLiteral("/long-text.json");
    QFile out(path);
    out.open(QIODevice::WriteOnly);
    out.write(QJsonDocument(lesson).toJson());
    return path;
}

struct Times {
    double construct = 0; // LabView's constructor: every shipped lesson parsed and planned
    double open = 0;
    double relayout = 0;
};

Times measure(const QString& lesson) {
    std::vector<double> construct, open, relayout;
    for (int i = 0; i < 7; ++i) {
        QElapsedTimer build;
        build.start();
        zerolab::LabView view;
        construct.push_back(ms(build));
        view.resize(930, 760); // the Lab at 1280x800 beside the runs panel
        view.show();
        QCoreApplication::processEvents();
        QElapsedTimer clock;
        clock.start();
        QString error;
        if (!view.openLesson(lesson, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            std::exit(1);
        }
        QCoreApplication::processEvents(); // the posted layout requests
        view.grab();                       // laid out and painted
        open.push_back(ms(clock));
        clock.restart();
        view.resize(900 - 10 * i, 760);
        QCoreApplication::processEvents();
        view.grab();
        relayout.push_back(ms(clock));
    }
    return {median(construct), median(open), median(relayout)};
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    zerolab::applyAppStyle(app);
    QTemporaryDir dir;
    const QString lesson = argc > 1 ? QString::fromLocal8Bit(argv[1]) : longLesson(dir.path());
    const Times shipped = measure(QStringLiteral("activations-recompute"));
    const Times big = measure(lesson);
    std::printf("%-44s %10s %10s %8s\n", "measure (median of 7)", "16 KiB", "shipped", "ratio");
    std::printf("%-44s %7.1f ms %7.1f ms %8.2f\n", "build the Lab view (lessons parsed)",
                big.construct, shipped.construct, big.construct / shipped.construct);
    std::printf("%-44s %7.1f ms %7.1f ms %8.2f\n", "open the lesson, first frame", big.open,
                shipped.open, big.open / shipped.open);
    std::printf("%-44s %7.1f ms %7.1f ms %8.2f\n", "relayout after a width change", big.relayout,
                shipped.relayout, big.relayout / shipped.relayout);
    return 0;
}
