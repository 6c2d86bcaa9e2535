#include "widgets/devices/DevicesPanel.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/devices/provider.h"

namespace ec::widgets {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QLineEdit* e) { return e->text().trimmed().toStdString(); }

}  // namespace

DevicesPanel::DevicesPanel(QWidget* parent) : QWidget(parent) {
  model_ = new DeviceListModel(this);
  view_ = new QTreeView(this);
  view_->setModel(model_);
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->header()->setStretchLastSection(true);
  notesLabel_ = new QLabel(this);
  notesLabel_->setWordWrap(true);
  refresh_ = new QPushButton(this);
  newId_ = new QLineEdit(this);
  add_ = new QPushButton(this);
  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(refresh_);
  buttons->addStretch();
  buttons->addWidget(newId_);
  buttons->addWidget(add_);
  topLayout->addLayout(buttons);
  topLayout->addWidget(view_);
  topLayout->addWidget(notesLabel_);

  auto* editor = new QWidget(this);
  auto* editorLayout = new QVBoxLayout(editor);
  editorLayout->setContentsMargins(0, 0, 0, 0);
  editorTitle_ = new QLabel(editor);
  tabs_ = new QTabWidget(editor);
  fields_[""] = makeFields(tabs_, false);
  tabs_->addTab(fields_[""].type->parentWidget(), QString());
  for (auto c : ec::devices::kComponents) {
    fields_[std::string(c)] = makeFields(tabs_, true);
    tabs_->addTab(fields_[std::string(c)].type->parentWidget(), QString());
  }
  save_ = new QPushButton(editor);
  status_ = new QLabel(editor);
  status_->setWordWrap(true);
  editorLayout->addWidget(editorTitle_);
  editorLayout->addWidget(tabs_);
  auto* saveRow = new QHBoxLayout;
  saveRow->addWidget(status_, 1);
  saveRow->addWidget(save_);
  editorLayout->addLayout(saveRow);

  auto* split = new QSplitter(Qt::Horizontal, this);  // a bottom dock: the list beside its editor
  split->addWidget(top);
  split->addWidget(editor);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  connect(refresh_, &QPushButton::clicked, this, &DevicesPanel::refreshRequested);
  connect(save_, &QPushButton::clicked, this, [this] { save(); });
  connect(add_, &QPushButton::clicked, this, [this] {
    if (!newId_->text().trimmed().isEmpty()) addRemoteDevice(newId_->text().trimmed());
  });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
    if (index.isValid()) selectDevice(model_->data(model_->index(index.row(), DeviceListModel::Id)).toString());
  });
  retranslate();
  loadEditor();
}

void DevicesPanel::setConfig(const QString& path, const ec::devices::DevicesConfig& config, const QString& readError) {
  path_ = path;
  config_ = config;
  configBroken_ = !readError.isEmpty();
  status_->setText(readError);
  loadEditor();
}

DevicesPanel::Fields DevicesPanel::makeFields(QWidget* parent, bool inherit) {
  auto* page = new QWidget(parent);
  auto* form = new QFormLayout(page);
  Fields f;
  f.type = new QComboBox(page);
  f.type->setEditable(true);  // any user string names a provider
  if (inherit) f.type->addItem(QString());
  f.type->addItem(QStringLiteral("local"));
  f.type->addItem(QStringLiteral("ssh"));
  f.host = new QLineEdit(page);
  f.port = new QLineEdit(page);
  f.port->setValidator(new QIntValidator(1, 65535, f.port));
  f.user = new QLineEdit(page);
  f.key = new QLineEdit(page);
  f.remoteDir = new QLineEdit(page);
  f.remoteCommand = new QLineEdit(page);
  for (QWidget* w : {static_cast<QWidget*>(f.type), static_cast<QWidget*>(f.host), static_cast<QWidget*>(f.port),
                     static_cast<QWidget*>(f.user), static_cast<QWidget*>(f.key), static_cast<QWidget*>(f.remoteDir),
                     static_cast<QWidget*>(f.remoteCommand)}) {
    auto* label = new QLabel(page);
    f.labels.push_back(label);
    form->addRow(label, w);
  }
  return f;
}

void DevicesPanel::setDevices(std::vector<ec::devices::HardwareDevice> devices, const QStringList& notes) {
  const QString keep = current_;
  // Devices only the config knows are listed too, so they can be edited before they are reachable.
  for (const auto& c : config_.devices) {
    bool listed = false;
    for (const auto& d : devices) listed |= d.id == c.id;
    if (listed) continue;
    ec::devices::HardwareDevice d;
    d.id = c.id;
    d.name = c.name.empty() ? c.id : c.name;
    d.type = c.type;
    d.vendor = c.vendor;
    d.metadata = {{ec::devices::kDiscoveredBy, "config"}, {ec::devices::kIsVirtual, "false"}};
    d.availability = {false, "not checked yet: refresh the list"};
    devices.push_back(std::move(d));
  }
  model_->setDevices(std::move(devices));
  notes_ = notes;
  notesLabel_->setText(notes_.join(QLatin1Char('\n')));
  for (int c = 0; c < DeviceListModel::Available; ++c) view_->resizeColumnToContents(c);
  const int row = model_->rowForId(keep.isEmpty() ? QStringLiteral("host-cpu") : keep);
  if (row >= 0) view_->setCurrentIndex(model_->index(row, 0));
}

void DevicesPanel::selectDevice(const QString& id) {
  if (id == current_) return;
  storeEditor();
  current_ = id;
  loadEditor();
  const int row = model_->rowForId(id);
  if (row >= 0 && view_->currentIndex().row() != row) view_->setCurrentIndex(model_->index(row, 0));
}

void DevicesPanel::addRemoteDevice(const QString& id) {
  storeEditor();
  if (!config_.find(id.toStdString())) {
    ec::devices::DeviceConfig d;
    d.id = id.toStdString();
    d.provider.type = "ssh";
    config_.devices.push_back(d);
  }
  auto devices = model_->devices();
  setDevices(std::move(devices), notes_);
  newId_->clear();
  current_.clear();
  selectDevice(id);
}

void DevicesPanel::loadEditor() {
  const bool on = !current_.isEmpty();
  tabs_->setEnabled(on);
  save_->setEnabled(on && !configBroken_);
  editorTitle_->setText(on ? tr("Provider of %1").arg(current_) : tr("Select a device to edit how it is reached."));
  const auto* c = on ? config_.find(current_.toStdString()) : nullptr;
  const ec::devices::DeviceConfig d = c ? *c : ec::devices::DeviceConfig{};
  const auto& p = d.provider;
  const Fields& f = fields_.at("");
  f.type->setCurrentText(q(p.type));
  f.host->setText(q(p.host));
  f.port->setText(QString::number(p.port));
  f.user->setText(q(p.user));
  f.key->setText(q(p.key));
  f.remoteDir->setText(q(p.remote_dir));
  f.remoteCommand->setText(q(p.remote_command));
  for (auto comp : ec::devices::kComponents) {
    const Fields& g = fields_.at(std::string(comp));
    auto it = d.components.find(std::string(comp));
    const ec::devices::ProviderOverride o = it == d.components.end() ? ec::devices::ProviderOverride{} : it->second;
    g.type->setCurrentText(o.type ? q(*o.type) : QString());
    g.host->setText(o.host ? q(*o.host) : QString());
    g.port->setText(o.port ? QString::number(*o.port) : QString());
    g.user->setText(o.user ? q(*o.user) : QString());
    g.key->setText(o.key ? q(*o.key) : QString());
    g.remoteDir->setText(o.remote_dir ? q(*o.remote_dir) : QString());
    g.remoteCommand->setText(o.remote_command ? q(*o.remote_command) : QString());
    // What an empty field inherits, shown in place.
    g.host->setPlaceholderText(q(p.host));
    g.port->setPlaceholderText(QString::number(p.port));
    g.user->setPlaceholderText(q(p.user));
    g.key->setPlaceholderText(q(p.key));
    g.remoteDir->setPlaceholderText(q(p.remote_dir));
    g.remoteCommand->setPlaceholderText(q(p.remote_command.empty() ? ec::devices::default_remote_command(comp) : p.remote_command));
  }
}

void DevicesPanel::storeEditor() {
  if (current_.isEmpty()) return;
  const std::string id = current_.toStdString();
  ec::devices::DeviceConfig d;
  if (const auto* c = config_.find(id)) d = *c;
  d.id = id;
  const Fields& f = fields_.at("");
  d.provider.type = f.type->currentText().trimmed().isEmpty() ? "local" : f.type->currentText().trimmed().toStdString();
  d.provider.host = s(f.host);
  d.provider.port = f.port->text().toInt() > 0 ? f.port->text().toInt() : 22;
  d.provider.user = s(f.user);
  d.provider.key = s(f.key);
  d.provider.remote_dir = s(f.remoteDir).empty() ? ec::devices::ProviderConfig{}.remote_dir : s(f.remoteDir);
  d.provider.remote_command = s(f.remoteCommand);
  d.components.clear();
  for (auto comp : ec::devices::kComponents) {
    const Fields& g = fields_.at(std::string(comp));
    ec::devices::ProviderOverride o;
    auto opt = [](const std::string& v) { return v.empty() ? std::nullopt : std::optional<std::string>(v); };
    o.type = opt(g.type->currentText().trimmed().toStdString());
    o.host = opt(s(g.host));
    if (g.port->text().toInt() > 0) o.port = g.port->text().toInt();
    o.user = opt(s(g.user));
    o.key = opt(s(g.key));
    o.remote_dir = opt(s(g.remoteDir));
    o.remote_command = opt(s(g.remoteCommand));
    if (!(o == ec::devices::ProviderOverride{})) d.components[std::string(comp)] = o;
  }
  ec::devices::DeviceConfig plain;
  plain.id = id;
  if (auto* existing = config_.find(id))
    *existing = d;
  else if (!(d == plain))  // a device nobody configured stays out of the file
    config_.devices.push_back(d);
}

bool DevicesPanel::save() {
  if (configBroken_) {
    const QString msg = tr("%1 could not be read; fix or delete it before saving").arg(path_);
    status_->setText(msg);
    emit configFailed(msg);
    return false;
  }
  storeEditor();
  saved_ = false;
  emit saveRequested(config_);
  return saved_;
}

void DevicesPanel::showSaved(const QString& path) {
  saved_ = true;
  status_->setText(tr("Saved to %1").arg(path));
  emit configSaved(path);
}

void DevicesPanel::showSaveFailed(const QString& message) {
  saved_ = false;
  status_->setText(message);
  emit configFailed(message);
}

void DevicesPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void DevicesPanel::retranslate() {
  refresh_->setText(tr("Refresh"));
  newId_->setPlaceholderText(tr("id of a remote device"));
  add_->setText(tr("Add remote device"));
  save_->setText(tr("Save"));
  tabs_->setTabText(0, tr("Device"));
  tabs_->setTabText(1, tr("Compiler"));
  tabs_->setTabText(2, tr("Profiler"));
  tabs_->setTabText(3, tr("Invoker"));
  // Every tab whole, in every language: the editor is never narrower than its tabs.
  tabs_->setMinimumWidth(tabs_->tabBar()->sizeHint().width() + 4);
  for (auto& [component, f] : fields_) {
    const bool inherit = !component.empty();
    const QString labels[] = {tr("Provider type"), tr("Host"), tr("Port"), tr("User"), tr("Key file"),
                              tr("Remote directory"), tr("Remote command")};
    for (std::size_t i = 0; i < f.labels.size(); ++i) f.labels[i]->setText(labels[i]);
    if (inherit) f.type->setToolTip(tr("Empty: the device's provider. Empty fields inherit the device's values."));
  }
  editorTitle_->setText(!current_.isEmpty() ? tr("Provider of %1").arg(current_)
                                             : tr("Select a device to edit how it is reached."));
  model_->headerDataChanged(Qt::Horizontal, 0, DeviceListModel::ColumnCount - 1);
}

}  // namespace ec::widgets
