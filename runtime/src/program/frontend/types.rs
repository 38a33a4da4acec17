//! Type resolution: lang-c declaration specifiers and declarators to [`Type`]s, struct and
//! union layouts (in the program's data model), enums, and the usual arithmetic conversions.

use super::layout::Member;
use super::{Lowerer, Res, Sig, Symbol};
use crate::program::ir::*;
use lang_c::ast::*;
use lang_c::span::Node;

/// The specifiers of a declaration, gathered from either specifier list kind.
#[derive(Default)]
pub(super) struct Specs<'a> {
    pub types: Vec<&'a Node<TypeSpecifier>>,
    pub typedef: bool,
    pub is_static: bool,
    pub is_extern: bool,
}

impl<'a> Specs<'a> {
    pub fn of_decl(specs: &'a [Node<DeclarationSpecifier>]) -> Specs<'a> {
        let mut out = Specs::default();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => out.types.push(t),
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => out.typedef = true,
                    StorageClassSpecifier::Static => out.is_static = true,
                    StorageClassSpecifier::Extern => out.is_extern = true,
                    _ => {}
                },
                _ => {}
            }
        }
        out
    }

    pub fn of_quals(specs: &'a [Node<SpecifierQualifier>]) -> Specs<'a> {
        let mut out = Specs::default();
        for s in specs {
            if let SpecifierQualifier::TypeSpecifier(t) = &s.node {
                out.types.push(t);
            }
        }
        out
    }
}

/// The result of applying a declarator: a name (if any), a type, and a signature for functions.
pub(super) struct Declared {
    pub name: Option<(String, lang_c::span::Span)>,
    pub ty: Type,
    pub sig: Option<Sig>,
}

impl Lowerer<'_> {
    /// The base type named by a list of type specifiers.
    pub(super) fn base_type(&mut self, specs: &Specs, span: lang_c::span::Span) -> Res<Type> {
        let (mut longs, mut short, mut unsigned, mut signed) = (0, false, false, false);
        let mut base: Option<Type> = None;
        let mut char_ = false;
        for ts in &specs.types {
            match &ts.node {
                TypeSpecifier::Void => base = Some(Type::Void),
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Int => {}
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Signed => signed = true,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => base = Some(Type::Int(IntTy::BOOL)),
                TypeSpecifier::Struct(st) => base = Some(self.struct_type(st)?),
                TypeSpecifier::Enum(en) => base = Some(self.enum_type(en)?),
                TypeSpecifier::TypedefName(id) => base = Some(self.typedef_type(id)?),
                TypeSpecifier::TypeOf(t) => base = Some(self.typeof_type(t)?),
                TypeSpecifier::Float | TypeSpecifier::Double => {
                    return self.unsup(ts.span, "floating-point types");
                }
                _ => return self.unsup(ts.span, "this type specifier"),
            }
        }
        if let Some(b) = base {
            return Ok(b);
        }
        let bits = if char_ {
            8
        } else if short {
            16
        } else if longs >= 3 {
            128
        } else if longs >= 2 {
            64
        } else if longs == 1 {
            self.model.long(true).bits
        } else {
            32
        };
        let _ = (signed, span);
        Ok(Type::Int(IntTy::new(bits, !unsigned)))
    }

    fn typedef_type(&self, id: &Node<Identifier>) -> Res<Type> {
        if id.node.name == "__builtin_va_list" {
            // The variadic arguments are a block of slots; a `va_list` points into it.
            return Ok(Type::Int(IntTy::CHAR).ptr_to());
        }
        match self.lookup(&id.node.name) {
            Some(Symbol::Typedef(t)) => Ok(t.clone()),
            _ => self.unsup(id.span, format!("unknown type name `{}`", id.node.name)),
        }
    }

    fn typeof_type(&mut self, t: &Node<TypeOf>) -> Res<Type> {
        match &t.node {
            TypeOf::Type(tn) => self.type_name(tn),
            TypeOf::Expression(e) => self.type_of_expr(e),
        }
    }

    /// The type of a type name (in casts and `sizeof`).
    pub(super) fn type_name(&mut self, tn: &Node<TypeName>) -> Res<Type> {
        let specs = Specs::of_quals(&tn.node.specifiers);
        let base = self.base_type(&specs, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    /// Applies a declarator to a base type.
    pub(super) fn declarator(&mut self, base: Type, d: &Node<Declarator>) -> Res<Declared> {
        let mut ty = base;
        let mut sig = None;
        for dd in &d.node.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => {
                    ty = ty.ptr_to();
                    sig = None;
                }
                DerivedDeclarator::Array(a) => ty = self.array_of(ty, &a.node.size, dd.span)?,
                DerivedDeclarator::Function(f) => {
                    sig = Some(self.signature(ty, &f.node));
                    ty = Type::Func;
                }
                DerivedDeclarator::KRFunction(ids) => {
                    sig = Some(Sig {
                        ret: Some(ty),
                        unsupported: (!ids.is_empty()).then(|| "K&R-style parameters".into()),
                        variadic: ids.is_empty(),
                        ..Sig::default()
                    });
                    ty = Type::Func;
                }
                DerivedDeclarator::Block(_) => return self.unsup(dd.span, "block pointers"),
            }
        }
        match &d.node.kind.node {
            DeclaratorKind::Abstract => Ok(Declared {
                name: None,
                ty,
                sig,
            }),
            DeclaratorKind::Identifier(id) => Ok(Declared {
                name: Some((id.node.name.clone(), id.span)),
                ty,
                sig,
            }),
            DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, inner)?;
                if r.sig.is_none() && !matches!(r.ty, Type::Ptr(_)) {
                    r.sig = sig;
                }
                Ok(r)
            }
        }
    }

    fn array_of(&mut self, elem: Type, size: &ArraySize, span: lang_c::span::Span) -> Res<Type> {
        let n = match size {
            ArraySize::Unknown => 0,
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                match self.const_eval(e) {
                    Some(n) if n >= 0 => n as u64,
                    _ => return self.unsup(span, "variable-length arrays"),
                }
            }
            ArraySize::VariableUnknown => return self.unsup(span, "variable-length arrays"),
        };
        Ok(Type::Array(Box::new(elem), n))
    }

    fn signature(&mut self, ret: Type, f: &FunctionDeclarator) -> Sig {
        let mut sig = Sig {
            ret: Some(ret),
            variadic: matches!(f.ellipsis, Ellipsis::Some),
            ..Sig::default()
        };
        for p in &f.parameters {
            match self.param_type(p) {
                Ok(Some(t)) => sig.params.push(t),
                Ok(None) => {}
                Err(e) => sig.unsupported = Some(e.msg),
            }
        }
        sig
    }

    /// The (adjusted) type of a parameter; `None` for a lone `void`.
    pub(super) fn param_type(&mut self, p: &Node<ParameterDeclaration>) -> Res<Option<Type>> {
        let specs = Specs::of_decl(&p.node.specifiers);
        let base = self.base_type(&specs, p.span)?;
        let ty = match &p.node.declarator {
            Some(d) => self.declarator(base, d)?.ty,
            None => base,
        };
        Ok(match ty {
            Type::Void => None,
            Type::Array(t, _) => Some(t.ptr_to()),
            Type::Func => Some(Type::Func.ptr_to()),
            t => Some(t),
        })
    }

    fn struct_type(&mut self, st: &Node<StructType>) -> Res<Type> {
        let is_union = matches!(st.node.kind.node, StructKind::Union);
        let name = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let id = match (&name, &st.node.declarations) {
            (Some(n), None) => self
                .tag_lookup(n)
                .unwrap_or_else(|| self.new_tag(n, is_union)),
            (Some(n), Some(_)) => match self.tags.last().and_then(|t| t.get(n)) {
                Some(id) if !self.structs[id.0 as usize].complete => *id,
                _ => self.new_tag(n, is_union),
            },
            (None, _) => self.new_tag(&format!("<anonymous#{}>", self.structs.len()), is_union),
        };
        if let Some(decls) = &st.node.declarations {
            self.struct_body(id, decls)?;
        }
        Ok(Type::Struct(id))
    }

    fn tag_lookup(&self, name: &str) -> Option<StructId> {
        self.tags.iter().rev().find_map(|t| t.get(name).copied())
    }

    fn new_tag(&mut self, name: &str, is_union: bool) -> StructId {
        let id = StructId(self.structs.len() as u32);
        let kw = if is_union { "union" } else { "struct" };
        self.structs.push(StructDef {
            name: format!("{kw} {name}"),
            is_union,
            fields: vec![],
            size: 0,
            align: 1,
            complete: false,
        });
        if let Some(t) = self.tags.last_mut() {
            t.insert(name.to_string(), id);
        }
        id
    }

    fn struct_body(&mut self, id: StructId, decls: &[Node<StructDeclaration>]) -> Res<()> {
        let mut members = vec![];
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let specs = Specs::of_quals(&f.node.specifiers);
            let base = self.base_type(&specs, f.span)?;
            let defines_body = specs.types.iter().any(
                |t| matches!(&t.node, TypeSpecifier::Struct(st) if st.node.declarations.is_some()),
            );
            if f.node.declarators.is_empty() && defines_body {
                // An anonymous struct or union member: its fields are reachable by name. (A
                // declaration such as `struct s;` inside a struct declares no member.)
                members.push(Member {
                    name: format!("<anon{}>", members.len()),
                    ty: base.clone(),
                    width: None,
                });
            }
            for sd in &f.node.declarators {
                let width = match &sd.node.bit_width {
                    Some(w) => Some(self.bit_width(w, &base)?),
                    None => None,
                };
                let (name, ty) = match &sd.node.declarator {
                    Some(decl) => {
                        let r = self.declarator(base.clone(), decl)?;
                        (r.name.map(|n| n.0).unwrap_or_default(), r.ty)
                    }
                    None => (String::new(), base.clone()),
                };
                if self.incomplete(&ty) {
                    // A member of incomplete type (the struct itself, a struct declared but
                    // not defined): a constraint violation the layout cannot take.
                    return self.unsup(sd.span, format!("member `{name}` of incomplete type"));
                }
                members.push(Member { name, ty, width });
            }
        }
        let is_union = self.structs[id.0 as usize].is_union;
        let l = super::layout::lay_out(&self.structs, self.model, is_union, members);
        let def = &mut self.structs[id.0 as usize];
        def.fields = l.fields;
        def.align = l.align;
        def.size = l.size;
        def.complete = true;
        Ok(())
    }

    /// Whether `ty` is (an array of) a struct or union whose body has not been seen.
    fn incomplete(&self, ty: &Type) -> bool {
        match ty {
            Type::Struct(s) => !self.structs[s.0 as usize].complete,
            Type::Array(t, _) => self.incomplete(t),
            _ => false,
        }
    }

    /// The width of a bit-field of type `ty`: a constant from 0 to the type's width.
    fn bit_width(&mut self, w: &Node<Expression>, ty: &Type) -> Res<u64> {
        let bits = match ty {
            Type::Int(t) if t.boolean => 1,
            Type::Int(t) => u64::from(t.bits),
            _ => return self.unsup(w.span, "a bit-field of a non-integer type"),
        };
        match self.const_eval(w) {
            Some(n) if (0..=bits as i64).contains(&n) => Ok(n as u64),
            _ => self.unsup(
                w.span,
                "a bit-field width that is not a constant of the type's width",
            ),
        }
    }

    fn enum_type(&mut self, en: &Node<EnumType>) -> Res<Type> {
        let mut next = 0i64;
        for e in &en.node.enumerators {
            if let Some(x) = &e.node.expression {
                next = match self.const_eval(x) {
                    Some(v) => v,
                    None => return self.unsup(x.span, "non-constant enumerator"),
                };
            }
            self.bind(&e.node.identifier.node.name, Symbol::EnumConst(next));
            next += 1;
        }
        Ok(Type::Int(IntTy::INT))
    }

    /// Finds a field by name, looking into anonymous members; its offset is from the start
    /// of `s`.
    pub(super) fn find_field(&self, s: StructId, name: &str) -> Option<Field> {
        for f in &self.structs[s.0 as usize].fields {
            if f.name == name {
                return Some(f.clone());
            }
            if f.name.starts_with("<anon")
                && let Type::Struct(inner) = f.ty
                && inner != s
                && let Some(g) = self.find_field(inner, name)
            {
                return Some(Field {
                    offset: f.offset + g.offset,
                    ..g
                });
            }
        }
        None
    }

    /// Size of a type in this unit's layout.
    pub(super) fn size_of(&self, ty: &Type) -> u64 {
        layout::size_of(&self.structs, self.model, ty)
    }

    /// Alignment of a type in this unit's layout.
    pub(super) fn align_of(&self, ty: &Type) -> u64 {
        layout::align_of(&self.structs, self.model, ty)
    }
}

/// Integer promotion: types narrower than `int` become `int`.
pub(super) fn promote(t: IntTy) -> IntTy {
    if t.bits < 32 { IntTy::INT } else { t }
}

/// The usual arithmetic conversions of two promoted integer types.
pub(super) fn usual(a: IntTy, b: IntTy) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.bits >= b.bits { a } else { b };
    }
    let (u, s) = if a.signed { (b, a) } else { (a, b) };
    if u.bits >= s.bits {
        IntTy::new(u.bits, false)
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_conversions() {
        assert_eq!(usual(IntTy::CHAR, IntTy::CHAR), IntTy::INT);
        assert_eq!(usual(IntTy::INT, IntTy::UINT), IntTy::UINT);
        assert_eq!(usual(IntTy::UINT, IntTy::LLONG), IntTy::LLONG);
        assert_eq!(usual(IntTy::BOOL, IntTy::UINT), IntTy::UINT);
    }
}
