//! The second half of the CDI library's `ParseSpec`: `sigs.k8s.io/yaml` turns yaml.v2's values
//! into JSON (`convertToJSONableObject`: keys become strings, a number or boolean bound for a Go
//! `string` becomes its text) and Go's `encoding/json` decodes that into `specs-go`'s structs
//! with `DisallowUnknownFields`. Replayed here on the YAML tree, so nothing is copied:
//! - field names match exactly or case-insensitively (`Kind:` is `kind`), object keys in byte
//!   order (json.Marshal sorts them), a later duplicate decoding into the earlier value;
//! - `null` leaves a string, number, boolean or struct as it was and clears a slice, map or
//!   pointer;
//! - numbers go through their JSON text: `1.0` fits an integer, `1.5` and `"1"` do not.

use std::borrow::Cow;

use crate::goyaml::resolve::{Value, as_go_string, key_string, resolve};
use crate::goyaml::{Doc, Node, NodeId};

/// A node as `encoding/json` sees it.
enum J<'d, 'a> {
    Null,
    Scalar(Value<'a>),
    Arr(&'d [NodeId]),
    Obj(Vec<(Cow<'a, str>, NodeId)>),
}

pub(super) struct De<'d, 'a> {
    doc: &'d Doc<'a>,
}

type R = Result<(), String>;

fn what(j: &J<'_, '_>) -> &'static str {
    match j {
        J::Null => "null",
        J::Scalar(Value::Bool(_)) => "bool",
        J::Scalar(Value::Str(_) | Value::Merge) => "string",
        J::Scalar(_) => "number",
        J::Arr(_) => "array",
        J::Obj(_) => "object",
    }
}

fn mismatch(j: &J<'_, '_>, field: &str, ty: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field {field} of type {ty}",
        what(j)
    )
}

/// `encoding/json`'s case-insensitive match (`bytes.EqualFold` against an ASCII field name:
/// the Kelvin sign folds to `k`, the long s to `s`).
fn fold_eq(key: &str, field: &str) -> bool {
    let mut f = field.bytes();
    for c in key.chars() {
        let folded = match c {
            '\u{212A}' => 'k',
            '\u{17F}' => 's',
            c if c.is_ascii() => c.to_ascii_lowercase(),
            _ => return false,
        };
        if f.next().map(|b| b.to_ascii_lowercase()) != Some(folded as u8) {
            return false;
        }
    }
    f.next().is_none()
}

impl<'d, 'a> De<'d, 'a> {
    pub(super) fn new(doc: &'d Doc<'a>) -> Self {
        De { doc }
    }

    fn view(&self, id: NodeId) -> Result<J<'d, 'a>, String> {
        Ok(match self.doc.target(id) {
            Node::Scalar(s) => match resolve(s)? {
                Value::Null => J::Null,
                v => J::Scalar(v),
            },
            Node::Seq(items) => J::Arr(items),
            Node::Map(items, _) => {
                let mut entries = Vec::with_capacity(items.len() / 2);
                self.entries(items, &mut entries)?;
                // json.Marshal writes a Go map's keys in byte order; decoding follows it.
                if !entries.is_sorted_by(|a, b| a.0.as_bytes() <= b.0.as_bytes()) {
                    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                }
                J::Obj(entries)
            }
            Node::Alias(_) | Node::Open => return Err("unresolved alias".to_string()),
        })
    }

    /// A mapping's entries, merge keys (`<<`) expanded; the YAML pass refused any overlap.
    fn entries(&self, items: &'d [NodeId], out: &mut Vec<(Cow<'a, str>, NodeId)>) -> R {
        for pair in items.chunks(2) {
            let [k, v] = *pair else { continue };
            let Node::Scalar(ks) = self.doc.target(k) else {
                return Err("invalid map key".to_string());
            };
            let key = resolve(ks)?;
            // An alias of `<<` is an ordinary key to yaml.v2 (`isMerge` wants a scalar node).
            if key == Value::Merge && matches!(self.doc.node(k), Node::Scalar(_)) {
                let merged: Vec<NodeId> = match self.doc.target(v) {
                    Node::Seq(list) => list.clone(),
                    _ => vec![v],
                };
                for m in merged {
                    if let Node::Map(inner, _) = self.doc.target(m) {
                        self.entries(inner, out)?;
                    }
                }
                continue;
            }
            out.push((key_string(&key)?, v));
        }
        Ok(())
    }

    /// Decodes an object into a struct whose JSON field names are `fields`.
    fn object(
        &self,
        id: NodeId,
        ty: &str,
        fields: &[&str],
        mut each: impl FnMut(&Self, usize, NodeId) -> R,
    ) -> Result<bool, String> {
        let entries = match self.view(id)? {
            J::Null => return Ok(false),
            J::Obj(e) => e,
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type specs.{ty}",
                    what(&other)
                ));
            }
        };
        for (key, value) in entries {
            let found = fields
                .iter()
                .position(|f| *f == key)
                .or_else(|| fields.iter().position(|f| fold_eq(&key, f)));
            match found {
                Some(i) => each(self, i, value)?,
                None => return Err(format!("json: unknown field \"{key}\"")),
            }
        }
        Ok(true)
    }

    /// Decodes an object into a struct value (`null` leaves it as it is).
    pub(super) fn object_into(
        &self,
        id: NodeId,
        ty: &str,
        fields: &[&str],
        each: impl FnMut(&Self, usize, NodeId) -> R,
    ) -> R {
        self.object(id, ty, fields, each).map(|_| ())
    }

    /// Decodes an object into a pointer to a struct (`null` makes it nil).
    pub(super) fn pointer_object<T: Default>(
        &self,
        id: NodeId,
        out: &mut Option<T>,
        ty: &str,
        fields: &[&str],
        mut each: impl FnMut(&mut T, &Self, usize, NodeId) -> R,
    ) -> R {
        self.pointer(id, out, |de, id, t| {
            de.object_into(id, ty, fields, |de, i, v| each(t, de, i, v))
        })
    }

    pub(super) fn string(&self, id: NodeId, out: &mut Cow<'a, str>, field: &str) -> R {
        match self.view(id)? {
            J::Null => Ok(()),
            J::Scalar(v) => {
                *out = as_go_string(&v).unwrap_or_default();
                Ok(())
            }
            j => Err(mismatch(&j, field, "string")),
        }
    }

    fn int(
        &self,
        id: NodeId,
        field: &str,
        ty: &str,
        min: i128,
        max: i128,
    ) -> Result<Option<i128>, String> {
        let j = self.view(id)?;
        let n: i128 = match &j {
            J::Null => return Ok(None),
            J::Scalar(Value::Int(i)) => i128::from(*i),
            J::Scalar(Value::Uint(u)) => i128::from(*u),
            // json.Marshal writes a whole float below 1e21 without a point ("-0" for -0.0,
            // which no unsigned field takes); anything else is not an integer literal.
            J::Scalar(Value::Float(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 => {
                if *f == 0.0 && f.is_sign_negative() && min >= 0 {
                    return Err(format!(
                        "json: cannot unmarshal number -0 into Go struct field {field} of type {ty}"
                    ));
                }
                *f as i128
            }
            _ => return Err(mismatch(&j, field, ty)),
        };
        if n < min || n > max {
            return Err(format!(
                "json: cannot unmarshal number {n} into Go struct field {field} of type {ty}"
            ));
        }
        Ok(Some(n))
    }

    pub(super) fn i64(&self, id: NodeId, out: &mut Option<i64>, field: &str, keep: bool) -> R {
        match self.int(
            id,
            field,
            "int64",
            i128::from(i64::MIN),
            i128::from(i64::MAX),
        )? {
            Some(n) => *out = i64::try_from(n).ok(),
            None if keep => {}
            None => *out = None,
        }
        Ok(())
    }

    pub(super) fn u32(&self, id: NodeId, out: &mut Option<u32>, field: &str, keep: bool) -> R {
        match self.int(id, field, "uint32", 0, i128::from(u32::MAX))? {
            Some(n) => *out = u32::try_from(n).ok(),
            None if keep => {}
            None => *out = None,
        }
        Ok(())
    }

    pub(super) fn bool(&self, id: NodeId, out: &mut bool, field: &str) -> R {
        match self.view(id)? {
            J::Null => Ok(()),
            J::Scalar(Value::Bool(b)) => {
                *out = b;
                Ok(())
            }
            j => Err(mismatch(&j, field, "bool")),
        }
    }

    /// A Go slice: `null` clears it, an array decodes element by element into the elements
    /// already there (Go reuses them), then the slice takes the array's length.
    pub(super) fn slice<T: Default>(
        &self,
        id: NodeId,
        out: &mut Option<Vec<T>>,
        field: &str,
        mut elem: impl FnMut(&Self, NodeId, &mut T) -> R,
    ) -> R {
        match self.view(id)? {
            J::Null => *out = None,
            J::Arr(items) => {
                let v = out.get_or_insert_with(Vec::new);
                for (i, &item) in items.iter().enumerate() {
                    if i == v.len() {
                        v.push(T::default());
                    }
                    elem(self, item, &mut v[i])?;
                }
                v.truncate(items.len());
            }
            j => return Err(mismatch(&j, field, "slice")),
        }
        Ok(())
    }

    /// A Go pointer to a struct: `null` makes it nil, an object decodes into the struct already
    /// pointed to, or a new one.
    pub(super) fn pointer<T: Default>(
        &self,
        id: NodeId,
        out: &mut Option<T>,
        mut fill: impl FnMut(&Self, NodeId, &mut T) -> R,
    ) -> R {
        if matches!(self.view(id)?, J::Null) {
            *out = None;
            return Ok(());
        }
        fill(self, id, out.get_or_insert_with(T::default))
    }

    /// A `map[string]string`, of which only its size matters: values must be strings (numbers
    /// and booleans are written as text, `null` is the empty string); a second one merges into
    /// the first, so the count is an upper bound that is zero only when the map is empty.
    pub(super) fn string_map(&self, id: NodeId, out: &mut Option<usize>, field: &str) -> R {
        match self.view(id)? {
            J::Null => *out = None,
            J::Obj(entries) => {
                for &(_, value) in &entries {
                    let mut text = Cow::Borrowed("");
                    self.string(value, &mut text, field)?;
                }
                *out = Some(out.unwrap_or(0) + entries.len());
            }
            j => return Err(mismatch(&j, field, "map[string]string")),
        }
        Ok(())
    }

    /// The document's root node; `None` when the document is empty.
    pub(super) fn root(&self) -> Option<NodeId> {
        self.doc.root
    }

    /// Decodes an object into a struct value, telling whether it was there (not `null`).
    pub(super) fn object_found(
        &self,
        id: NodeId,
        ty: &str,
        fields: &[&str],
        each: impl FnMut(&Self, usize, NodeId) -> R,
    ) -> Result<bool, String> {
        self.object(id, ty, fields, each)
    }
}
