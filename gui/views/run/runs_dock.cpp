// Runs dock: table over RunsModel through RunsFilterProxy, empty state, details.
#include "gui/views/run/runs_dock.h"

#include "gui/client/store_client.h"
#include "gui/core/display_text.h"
#include "gui/core/runs_model.h"
#include "gui/widgets/style.h"
#include "storage/stored_text.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace zerolab {

RunsDock::RunsDock(StoreClient* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_model(new RunsModel(this)),
      m_proxy(new RunsFilterProxy(this)), m_filter(new QLineEdit), m_stack(new QStackedWidget),
      m_table(new QTableView), m_empty(new QLabel), m_details(new QWidget),
      m_detailTitle(new QLabel), m_tags(new QLineEdit), m_notes(new QPlainTextEdit),
      m_compare(new QPushButton), m_save(new QPushButton), m_remove(new QPushButton) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    m_filter->setClearButtonEnabled(true);
    // Compare acts on the list's selection, so it sits with the list, not the details.
    auto* top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_compare);
    layout->addLayout(top);

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(24);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    const int widths[RunsModel::kColumnCount] = {62, 104, 52, 30, 50, 50, 64, 70, 80};
    for (int c = 0; c < RunsModel::kColumnCount; ++c)
        m_table->setColumnWidth(c, widths[c]);

    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setTextFormat(Qt::RichText);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_empty);
    layout->addWidget(m_stack, 1);

    auto* details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 4, 0, 0);
    details->setSpacing(4);
    m_detailTitle->setObjectName(QStringLiteral("cardTitle"));
    m_detailTitle->setTextFormat(Qt::PlainText); // a run's name is never markup
    m_detailTitle->setMinimumWidth(1);           // a long name is clipped, never widens the dock
    details->addWidget(m_detailTitle);
    details->addWidget(m_tags);
    m_notes->setMaximumHeight(70);
    details->addWidget(m_notes);
    auto* buttons = new QHBoxLayout;
    m_compare->setEnabled(false);
    buttons->addWidget(m_save);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    details->addLayout(buttons);
    layout->addWidget(m_details);
    m_details->setEnabled(false);
    m_details->setVisible(false);

    retranslate();

    connect(m_filter, &QLineEdit::textChanged, this, &RunsDock::setFilterText);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunsDock::onSelection);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& i) {
        emit runActivated(i.data(RunsModel::RunIdRole).toLongLong());
    });
    connect(m_save, &QPushButton::clicked, this, &RunsDock::saveDetails);
    connect(m_tags, &QLineEdit::returnPressed, this, &RunsDock::saveDetails);
    connect(m_remove, &QPushButton::clicked, this, &RunsDock::confirmDelete);
    connect(m_compare, &QPushButton::clicked, this,
            [this] { emit compareRequested(selectedRunIds()); });
    connect(store, &StoreClient::runsListed, this, [this](const QVector<RunSummary>& runs) {
        m_model->setRuns(runs, m_store->silentRuns());
        fitNameColumn();
        m_stack->setCurrentWidget(runs.isEmpty() ? static_cast<QWidget*>(m_empty) : m_table);
        if (m_wanted >= 0)
            selectRun(m_wanted);
    });
    connect(store, &StoreClient::openFailed, this, [this](const QString& path, const QString& why) {
        m_openError = tr("<p style='font-size:12pt; font-weight:600; color:%1'>Cannot open "
                         "the run store</p><p><code>%3</code></p><p style='color:%2'>%4</p>"
                         "<p style='color:%2'>Pick another with File &gt; Open run store…</p>")
                          .arg(kErrorColor.name(), kTextMuted.name(), path.toHtmlEscaped(),
                               why.toHtmlEscaped());
        m_model->setRuns({});
        retranslate();
        m_stack->setCurrentWidget(m_empty);
    });
    connect(store, &StoreClient::opened, this, [this] {
        m_openError.clear();
        retranslate();
    });
    m_stack->setCurrentWidget(m_empty);
}

void RunsDock::setFilterText(const QString& text) {
    if (m_filter->text() != text)
        m_filter->setText(text);
    m_proxy->setFilterText(text);
}

void RunsDock::selectRun(qint64 runId) {
    m_wanted = runId;
    const int row = m_model->rowOf(runId);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return;
    const QSignalBlocker block(m_table->selectionModel());
    m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect |
                                                 QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    showSelection();
}

QList<qint64> RunsDock::selectedRunIds() const {
    QList<qint64> ids;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        ids << i.data(RunsModel::RunIdRole).toLongLong();
    return ids;
}

void RunsDock::onSelection() {
    const qint64 before = m_selected;
    showSelection();
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() != 1)
        return;
    m_wanted = ids.front();
    if (m_selected != before)
        emit runActivated(m_selected);
}

void RunsDock::retranslate() {
    m_compare->setText(tr("Compare"));
    m_filter->setPlaceholderText(tr("Filter: name, tag, status, notes…"));
    m_empty->setText(!m_openError.isEmpty()
                         ? m_openError
                         : tr("<p style='font-size:12pt; font-weight:600; color:%1'>No runs yet</p>"
                              "<p style='color:%2'>Press <b>▶ Start run</b> in Setup, or start one "
                              "from a terminal:</p>"
                              "<p><code>make run</code></p><p style='color:%2'>or</p>"
                              "<p><code>mpirun -np 2 build/bin/zerolab-train<br>--config "
                              "resources/configs/micro-stage1.json</code></p>"
                              "<p style='color:%2'>It appears here while it trains.</p>")
                               .arg(kTextStrong.name(), kTextMuted.name()));
    m_tags->setPlaceholderText(tr("tags, comma separated"));
    m_notes->setPlaceholderText(tr("Notes on this run…"));
    // Short labels so the rows fit a narrow dock; tooltips say the rest.
    m_save->setText(tr("Save"));
    m_save->setToolTip(tr("Save the tags and notes of this run"));
    m_remove->setText(tr("Delete…"));
    m_remove->setToolTip(tr("Delete this run from the store (asks first)"));
    m_compare->setToolTip(tr("Open the selected runs (two or more) in the Compare tab"));
    m_model->retranslate();
    const QList<qint64> ids = selectedRunIds();
    if (ids.size() != 1)
        m_detailTitle->setText(ids.isEmpty() ? tr("No run selected")
                                             : tr("%1 runs selected").arg(ids.size()));
}

void RunsDock::fitNameColumn() {
    constexpr int kLeast = 104, kMost = 240, kPadding = 16;
    int widest = 0;
    const QFontMetrics metrics(m_table->font());
    for (int r = 0; r < m_model->rowCount(); ++r)
        widest = std::max(widest, metrics.horizontalAdvance(
                                      m_model->index(r, RunsModel::Name).data().toString()));
    m_table->setColumnWidth(RunsModel::Name, std::clamp(widest + kPadding, kLeast, kMost));
}

void RunsDock::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunsDock::showSelection() {
    const QList<qint64> ids = selectedRunIds();
    m_compare->setEnabled(ids.size() >= 2);
    m_details->setEnabled(ids.size() == 1);
    m_details->setVisible(!ids.isEmpty());
    if (ids.size() != 1) {
        m_detailTitle->setText(ids.isEmpty() ? tr("No run selected")
                                             : tr("%1 runs selected").arg(ids.size()));
        return;
    }
    const RunSummary* r = m_model->runAt(m_model->rowOf(ids.front()));
    if (!r)
        return;
    const bool changed = m_selected != r->id;
    m_selected = r->id;
    m_detailTitle->setText(
        QStringLiteral("#%1 %2").arg(r->id).arg(shownText(r->name, kShownNameChars)));
    if (changed) {
        QStringList tags;
        for (const auto& t : r->tags)
            tags << QString::fromStdString(t);
        m_tags->setText(tags.join(QStringLiteral(", ")));
        m_notes->setPlainText(shownNotes(r->notes));
    }
}

void RunsDock::saveDetails() {
    if (m_selected < 0)
        return;
    QStringList tags;
    for (const QString& t : m_tags->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!t.trimmed().isEmpty())
            tags << t.trimmed();
    // The rules of zerolab-runs tag and note (storage/stored_text.h).
    QStringList problems;
    for (const QString& t : tags)
        if (const auto p = storedTextProblem(t.toStdString(), TextKind::OneLine, kMaxTagBytes))
            problems << tr("Tag “%1”: %2").arg(t.left(kShownNameChars), QString::fromStdString(*p));
    if (const auto p = storedTextProblem(m_notes->toPlainText().toStdString(), TextKind::MultiLine,
                                         kMaxNotesBytes))
        problems << tr("Notes: %1").arg(QString::fromStdString(*p));
    if (!problems.isEmpty()) {
        QMessageBox::warning(this, tr("Not saved"), problems.join(QLatin1Char('\n')));
        return;
    }
    m_store->setTags(m_selected, tags);
    m_store->setNotes(m_selected, m_notes->toPlainText());
    m_store->listRuns();
}

void RunsDock::confirmDelete() {
    if (m_selected < 0)
        return;
    const RunSummary* r = m_model->runAt(m_model->rowOf(m_selected));
    const QString name = r ? shownText(r->name, kShownNameChars) : QString::number(m_selected);
    const auto answer = QMessageBox::question(
        this, tr("Delete run"),
        tr("Delete run #%1 “%2” and every step, event and checkpoint record it has?\n"
           "Checkpoint files on disk are not touched. This cannot be undone.")
            .arg(m_selected)
            .arg(name),
        QMessageBox::Cancel | QMessageBox::Yes, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        deleteRunNow(m_selected);
}

void RunsDock::deleteRunNow(qint64 runId) {
    m_store->deleteRun(runId);
    if (runId == m_selected)
        m_selected = -1;
    if (runId == m_wanted)
        m_wanted = -1;
    m_store->listRuns();
}

} // namespace zerolab
